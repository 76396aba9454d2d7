/* clarify-test-phoenix.h: the recorded Phoenix IDE bytes, for the tests
 *
 * Header-only (static inline): tests/meson.build links no extra test sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "clarify-test-server.h"

#define CAPTURED "protocols/phoenix-captured/"
#define CONV "37f54420-d551-4f6b-b692-217a890efbe4"
#define CONV_PW "d97287c3-bc5b-4156-b4b8-0ed4be05486b"
#define WAIT_MS 5000

/* What Phoenix's list_conversations returns (handlers.rs: the record and
 * its display_state); not in the recordings, so built from the recorded
 * record of the create reply. */
#define LISTING(...) LISTING_ (__VA_ARGS__)
#define LISTING_(id, state, display) \
  "{\"conversations\":[{\"archived\":false,\"conv_mode\":{\"mode\":\"Direct\"},\"created_at\":\"2026-11-25T00:38:33.402794837Z\",\"cwd\":\"/tmp\",\"desired_base_branch\":null,\"id\":\"" id "\",\"message_count\":0,\"model\":\"claude-sonnet-4-6\",\"parent_conversation_id\":null,\"project_id\":null,\"seed_label\":null,\"seed_parent_id\":null,\"slug\":\"add-date-parsing\",\"state\":" state ",\"state_updated_at\":\"2026-11-25T00:38:33.402794837Z\",\"title\":\"Add Date Parsing\",\"updated_at\":\"2026-11-25T00:38:33.402794837Z\",\"user_initiated\":true,\"display_state\":\"" display "\"}]}"
#define WORKING "{\"type\":\"llm_requesting\",\"attempt\":1}", "working"
#define IDLE "{\"type\":\"idle\"}", "idle"

/* The replies of http_exchanges.txt, byte for byte. */
#define SUCCESS "{\"success\":true}"
#define WRONG_STATE "{\"error\":\"Conversation is not awaiting a user response\",\"error_type\":\"wrong_state\"}"
#define CANCEL_OK "{\"ok\":true}"
#define NO_OP "{\"ok\":true,\"no_op\":true}"
#define AUTH_REQUIRED "{\"error\":\"Authentication required\"}"

#define ANSWER_BODY \
  "{\"answers\":{\"Which date library should I use?\":\"date-fns\",\"Which features should the CLI support?\":\"Export to CSV, Reminders, iCal import\"}," \
  "\"annotations\":{\"Which date library should I use?\":{\"preview\":\"import { parseISO } from 'date-fns';\\nparseISO('2026-05-06');\"}}}"

/* A recorded stream: the response head, then its chunks, each with its own
 * framing ("SIZE\r\n" … "\r\n"), as they came. */
typedef struct
{
  GBytes    *head;
  GPtrArray *chunks;  /* GBytes */
} Recording;

static inline void
recording_free (Recording *recording)
{
  g_bytes_unref (recording->head);
  g_ptr_array_unref (recording->chunks);
  g_free (recording);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Recording, recording_free)

static inline Recording *
recording_load (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", CAPTURED, name, NULL);
  g_autoptr(GError) error = NULL;
  Recording *recording = g_new0 (Recording, 1);
  g_autofree char *data = NULL;
  const char *end;
  const char *p;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);

  end = strstr (data, "\r\n\r\n");
  g_assert_nonnull (end);
  recording->head = g_bytes_new (data, end + 4 - data);
  recording->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (p = end + 4; p < data + len;)
    {
      char *after = NULL;
      guint64 size = g_ascii_strtoull (p, &after, 16);
      const char *next;

      g_assert_true (after != NULL && after[0] == '\r' && after[1] == '\n');
      next = after + 2 + size + 2;
      g_assert_true (next <= data + len);
      g_ptr_array_add (recording->chunks, g_bytes_new (p, next - p));
      p = next;
    }

  return recording;
}

/* The head and chunks @from..@to (inclusive), as one byte string. */
static inline GBytes *
recording_cut (Recording *recording,
               gboolean   with_head,
               guint      from,
               guint      to)
{
  GByteArray *bytes = g_byte_array_new ();

  if (with_head)
    g_byte_array_append (bytes, g_bytes_get_data (recording->head, NULL), g_bytes_get_size (recording->head));
  for (guint i = from; i <= to && i < recording->chunks->len; i++)
    g_byte_array_append (bytes, g_bytes_get_data (recording->chunks->pdata[i], NULL),
                         g_bytes_get_size (recording->chunks->pdata[i]));

  return g_byte_array_free_to_bytes (bytes);
}
