/* clarify-json-config.h: another program's JSON settings file, changed in place
 *
 * What `clarify setup claude-code` and "Add Clarify" share: the file is read
 * strictly, changed by the caller, and written back atomically with its mode
 * kept, the previous content copied to PATH.clarify-backup first. A symbolic
 * link is followed, not replaced. Nothing is written when nothing changed
 * or on error.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Changes @root (always an object when the file was empty or missing);
 * sets *@changed when it did. */
typedef gboolean (*ClarifyJsonConfigEdit) (JsonNode  *root,
                                           gboolean  *changed,
                                           gpointer   user_data,
                                           GError   **error);

/* The parsed file at @path; NULL with G_FILE_ERROR_NOENT when it is
 * missing, G_IO_ERROR_INVALID_DATA when it is not JSON. A blank file is an
 * empty object. */
JsonNode *clarify_json_config_read   (const char             *path,
                                      GError                **error);

/* The parsed file at @path written as JSONC (comments and trailing commas
 * allowed, as OpenCode's opencode.jsonc): for reading only, since writing it
 * back would lose its comments. Errors as clarify_json_config_read(). */
JsonNode *clarify_json_config_read_jsonc (const char         *path,
                                          GError            **error);

/* Reads @path, lets @edit change it, writes it back. A missing file is
 * created with its folders when @create, else left missing (success,
 * nothing written). Only a regular file (or a link to one) is changed.
 * The file as it was is kept as PATH.clarify-backup, unless it is as
 * Clarify wrote it and a backup is there (the user's own bytes). With
 * @holds_secret the file and the backup are readable by the user only.
 * @written and @backup_path (nullable; NULL when no backup was written)
 * say what happened. */
gboolean  clarify_json_config_update (const char             *path,
                                      gboolean                create,
                                      gboolean                holds_secret,
                                      ClarifyJsonConfigEdit   edit,
                                      gpointer                user_data,
                                      gboolean               *written,
                                      char                  **backup_path,
                                      GError                **error);

G_END_DECLS
