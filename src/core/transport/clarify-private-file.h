/* clarify-private-file.h: files only the user may read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes @length bytes of @data (-1: up to its NUL) to @path: the folders
 * made 0700 where missing, then the file written whole, mode 0600, through
 * a temporary file renamed over it, so that a crash leaves the old file and
 * nobody else can read the new one, not even for a moment. */
gboolean clarify_private_file_write (const char  *path,
                                     const char  *data,
                                     gssize       length,
                                     GError     **error);

G_END_DECLS
