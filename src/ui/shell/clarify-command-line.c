/* clarify-command-line.c: a command line whose output is kept, not sent
 *
 * A later `clarify` hands its command line to the running instance through
 * Clarify's own D-Bus interface and prints what comes back. GApplication's
 * own way calls back into the caller (org.gtk.private.CommandLine.Print),
 * which Flatpak's D-Bus proxy denies, so --list printed nothing there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-command-line.h"

struct _ClarifyCommandLine
{
  GApplicationCommandLine parent_instance;

  GString                *out;
  GString                *err;
};

G_DEFINE_FINAL_TYPE (ClarifyCommandLine, clarify_command_line, G_TYPE_APPLICATION_COMMAND_LINE)

static void
clarify_command_line_print_literal (GApplicationCommandLine *command_line,
                                    const char              *message)
{
  g_string_append (CLARIFY_COMMAND_LINE (command_line)->out, message);
}

static void
clarify_command_line_printerr_literal (GApplicationCommandLine *command_line,
                                       const char              *message)
{
  g_string_append (CLARIFY_COMMAND_LINE (command_line)->err, message);
}

static void
clarify_command_line_finalize (GObject *object)
{
  ClarifyCommandLine *self = CLARIFY_COMMAND_LINE (object);

  g_string_free (self->out, TRUE);
  g_string_free (self->err, TRUE);

  G_OBJECT_CLASS (clarify_command_line_parent_class)->finalize (object);
}

static void
clarify_command_line_class_init (ClarifyCommandLineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationCommandLineClass *command_line_class = G_APPLICATION_COMMAND_LINE_CLASS (klass);

  object_class->finalize = clarify_command_line_finalize;
  command_line_class->print_literal = clarify_command_line_print_literal;
  command_line_class->printerr_literal = clarify_command_line_printerr_literal;
}

static void
clarify_command_line_init (ClarifyCommandLine *self)
{
  self->out = g_string_new (NULL);
  self->err = g_string_new (NULL);
}

/* @arguments: aay; @platform_data: a{sv} with "options" (a{sv}) and "cwd" (ay),
 * as GApplication sends them. */
ClarifyCommandLine *
clarify_command_line_new (GVariant *arguments,
                          GVariant *platform_data)
{
  g_autoptr(GVariant) options = g_variant_lookup_value (platform_data, "options", G_VARIANT_TYPE_VARDICT);

  return g_object_new (CLARIFY_TYPE_COMMAND_LINE,
                       "arguments", arguments,
                       "options", options,
                       "platform-data", platform_data,
                       NULL);
}

const char *
clarify_command_line_get_out (ClarifyCommandLine *self)
{
  g_return_val_if_fail (CLARIFY_IS_COMMAND_LINE (self), NULL);

  return self->out->str;
}

const char *
clarify_command_line_get_err (ClarifyCommandLine *self)
{
  g_return_val_if_fail (CLARIFY_IS_COMMAND_LINE (self), NULL);

  return self->err->str;
}
