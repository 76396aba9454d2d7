/* clarify-request-notification.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "clarify-inbox.h"
#include "clarify-request-notification.h"
#include "clarify-request-source.h"
#include "clarify-validate.h"

/* GNOME Shell shows about four lines of a body; the dialog has the rest. */
#define BODY_CHARS    200
/* A request's title above its question: one line. */
#define TITLE_CHARS   60
/* GNOME Shell shows three buttons; more would hide some answers. */
#define MAX_BUTTONS   3
/* The bus itself answers at once. */
#define ASK_TIMEOUT_MS 2000

/* The one question whose answer fits in buttons, or NULL. */
static ClarifyQuestion *
button_question (ClarifyRequest *request)
{
  ClarifyQuestion *question;

  if (clarify_request_get_n_questions (request) != 1)
    return NULL;

  question = clarify_request_get_question (request, 0);
  switch (clarify_question_get_kind (question))
    {
    case CLARIFY_QUESTION_KIND_CONFIRM:
      return question;

    case CLARIFY_QUESTION_KIND_SINGLE:
    case CLARIFY_QUESTION_KIND_PERMISSION:
      {
        guint n = clarify_question_get_n_options (question);

        return n > 0 && n <= MAX_BUTTONS ? question : NULL;
      }

    default:
      return NULL;
    }
}

typedef struct
{
  const char *label;
  const char *value;
} Button;

/* @question's answers as buttons, in the dialog's order; returns how many. */
static guint
get_buttons (ClarifyQuestion *question,
             Button           buttons[MAX_BUTTONS])
{
  guint n = 0;

  if (clarify_question_get_kind (question) == CLARIFY_QUESTION_KIND_CONFIRM)
    {
      /* The values the dialog's confirm input sends. */
      buttons[n++] = (Button) { _("Yes"), "yes" };
      buttons[n++] = (Button) { _("No"), "no" };
      return n;
    }

  for (; n < clarify_question_get_n_options (question) && n < MAX_BUTTONS; n++)
    {
      ClarifyOption *option = clarify_question_get_option (question, n);

      buttons[n] = (Button) { clarify_option_get_label (option), clarify_option_get_value (option) };
    }

  return n;
}

/* What the markup of org.freedesktop.Notifications bodies reads: only these
 * three, in the entities every server knows (not &#39;, which GNOME Shell
 * shows as it is). */
static char *
escape_body_markup (const char *text)
{
  GString *escaped = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '<')
        g_string_append (escaped, "&lt;");
      else if (*p == '>')
        g_string_append (escaped, "&gt;");
      else if (*p == '&')
        g_string_append (escaped, "&amp;");
      else
        g_string_append_c (escaped, *p);
    }

  return g_string_free (escaped, FALSE);
}

/* The question, under the request's title when it has one: the buttons
 * answer the question, which the title alone would hide. */
static char *
dup_body_text (ClarifyRequest *request)
{
  const char *title = clarify_request_get_title (request);
  const char *question = NULL;
  g_autofree char *short_title = NULL;

  if (clarify_request_get_n_questions (request) > 0)
    question = clarify_question_get_text (clarify_request_get_question (request, 0));

  if (title == NULL || *title == '\0' || question == NULL || *question == '\0' || g_str_equal (title, question))
    return g_strdup (clarify_request_get_summary (request));

  short_title = g_strdup (title);
  clarify_truncate_text (short_title, TITLE_CHARS);

  return g_strconcat (short_title, "\n", question, NULL);
}

const char *
clarify_request_notification_get_run_token (void)
{
  static gsize token;

  if (g_once_init_enter (&token))
    g_once_init_leave (&token, (gsize) g_uuid_string_random ());

  return (const char *) token;
}

GNotification *
clarify_request_notification_new (ClarifyRequest *request,
                                  gboolean        body_is_markup)
{
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *key = NULL;
  g_autofree char *body = NULL;
  g_autofree char *title = NULL;
  ClarifyQuestion *question;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);

  key = clarify_inbox_dup_key (request);
  /* Cut before escaping: an entity is never cut in half. */
  body = dup_body_text (request);
  clarify_truncate_text (body, BODY_CHARS);
  if (body_is_markup)
    {
      g_autofree char *plain = g_steal_pointer (&body);

      body = escape_body_markup (plain);
    }

  /* Translators: "<agent> asks", the title of a notification whose body is the question */
  title = g_strdup_printf (_("%s asks"), clarify_request_source_get_asker (request));
  /* The title is plain text on every server. */
  notification = g_notification_new (title);
  g_notification_set_body (notification, body);
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_notification_set_default_action_and_target (notification, "app.open-request", "s", key);

  question = button_question (request);
  if (question != NULL)
    {
      Button buttons[MAX_BUTTONS];
      guint n = get_buttons (question, buttons);

      /* Button labels are plain text on every server. */
      for (guint i = 0; i < n; i++)
        g_notification_add_button_with_target (notification, buttons[i].label,
                                               "app." CLARIFY_ANSWER_REQUEST_ACTION,
                                               "(sss)", clarify_request_notification_get_run_token (),
                                               key, buttons[i].value);
    }

  return g_steal_pointer (&notification);
}

ClarifyResponse *
clarify_request_notification_answer (ClarifyRequest *request,
                                     const char     *value)
{
  ClarifyQuestion *question;
  ClarifyResponse *response;
  Button buttons[MAX_BUTTONS];
  gboolean offered = FALSE;
  const char *values[] = { value, NULL };
  guint n;

  g_return_val_if_fail (CLARIFY_IS_REQUEST (request), NULL);
  g_return_val_if_fail (value != NULL, NULL);

  /* Only what a button offered: the action is open to anyone on the bus. */
  question = button_question (request);
  if (question == NULL)
    return NULL;
  n = get_buttons (question, buttons);
  for (guint i = 0; i < n; i++)
    offered |= g_strcmp0 (buttons[i].value, value) == 0;
  if (!offered)
    return NULL;

  /* As the dialog's Submit builds it: the chosen value, no custom text, no note. */
  response = clarify_response_new (clarify_request_get_id (request), CLARIFY_OUTCOME_ANSWERED);
  clarify_response_add_answer (response, clarify_question_get_id (question), values, NULL, FALSE);

  return response;
}

static void
capabilities_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autofree const char **capabilities = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  /* A server that cannot say is taken to read markup, the safe side. */
  if (reply == NULL)
    {
      g_debug ("Cannot ask the notification server what it reads: %s", error->message);
      g_task_return_boolean (task, TRUE);
      return;
    }
  g_variant_get (reply, "(^a&s)", &capabilities);
  g_task_return_boolean (task, g_strv_contains (capabilities, "body-markup"));
}

static void
ask_capabilities (GTask *task)
{
  /* The specification's way to ask. Nothing waits for the answer (bodies
   * go out escaped until it comes), so a server that is slow to start is
   * given all the time it needs: a late answer still counts. */
  g_dbus_connection_call (g_task_get_source_object (task), "org.freedesktop.Notifications",
                          "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                          "GetCapabilities", NULL, G_VARIANT_TYPE ("(as)"), G_DBUS_CALL_FLAGS_NONE,
                          G_MAXINT, g_task_get_cancellable (task), capabilities_cb, task);
}

static void
gtk_owner_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GVariant) owned = NULL;
  gboolean has_owner = FALSE;

  owned = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, NULL);
  if (owned != NULL)
    g_variant_get (owned, "(b)", &has_owner);
  if (has_owner)
    {
      g_task_return_boolean (task, FALSE);
      g_object_unref (task);
      return;
    }
  ask_capabilities (task);
}

void
clarify_request_notification_ask_body_markup (GDBusConnection     *bus,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data)
{
  const char *backend = g_getenv ("GNOTIFICATION_BACKEND");
  GTask *task;

  g_return_if_fail (G_IS_DBUS_CONNECTION (bus));

  task = g_task_new (bus, cancellable, callback, user_data);
  g_task_set_source_tag (task, clarify_request_notification_ask_body_markup);

  /* GLib's own choice of the way out (gio/gnotificationbackend.c): the
   * portal in a sandbox and org.gtk.Notifications take plain text; only
   * org.freedesktop.Notifications may read the body as markup. */
  if (backend != NULL && *backend != '\0')
    {
      if (!g_str_equal (backend, "freedesktop"))
        {
          g_task_return_boolean (task, FALSE);
          g_object_unref (task);
          return;
        }
      ask_capabilities (task);
      return;
    }
  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      g_task_return_boolean (task, FALSE);
      g_object_unref (task);
      return;
    }
  g_dbus_connection_call (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "NameHasOwner", g_variant_new ("(s)", "org.gtk.Notifications"),
                          G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE, ASK_TIMEOUT_MS, cancellable,
                          gtk_owner_cb, task);
}

gboolean
clarify_request_notification_ask_body_markup_finish (GAsyncResult *result)
{
  g_autoptr(GError) error = NULL;
  gboolean markup;

  g_return_val_if_fail (G_IS_TASK (result), TRUE);

  markup = g_task_propagate_boolean (G_TASK (result), &error);
  return error != NULL ? TRUE : markup;
}
