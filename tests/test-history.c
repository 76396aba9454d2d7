/* test-history.c: the questions that ended, kept on disk
 *
 * Requests end through a real inbox (answered, skipped, cancelled, timed
 * out, withdrawn); the history records each, writes them in the background
 * (a burst in one go, after it), keeps the last 500, reads them back after
 * a restart, sets a corrupt file aside and clears.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "clarify-history.h"
#include "clarify-inbox.h"
#include "clarify-test-backend.h"
#include "clarify-test-history.h"
#include "clarify-test-log.h"
#include "clarify-test-server.h"

#define WAIT_MS 10000

typedef struct
{
  char           *dir;
  char           *path;
  ClarifyInbox   *inbox;
  ClarifyBackend *backend;
  ClarifyHistory *history;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("clarify-history-XXXXXX", NULL);
  /* A folder the history makes itself. */
  f->path = g_build_filename (f->dir, "clarify", "history.json", NULL);
  f->inbox = clarify_inbox_new ();
  f->backend = clarify_test_backend_new ("work");
  clarify_inbox_add_backend (f->inbox, f->backend);
  f->history = clarify_history_new (f->path);
  clarify_history_watch (f->history, f->inbox);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->history);
  g_clear_object (&f->backend);
  g_clear_object (&f->inbox);
  clarify_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static const char * const places[] = { "Grüße aus Köln", "koeln", "Berlin", "berlin", NULL };

static ClarifyRequest *
new_request (const char          *id,
             ClarifyQuestionKind  kind,
             const char          *text)
{
  return clarify_test_history_request (id, kind, text, kind == CLARIFY_QUESTION_KIND_SINGLE ? places : NULL);
}

static void
answer (Fixture        *f,
        ClarifyRequest *request,
        ClarifyOutcome  outcome,
        const char     *value,
        const char     *custom)
{
  clarify_test_history_answer (f->inbox, request, outcome, value, custom);
}

typedef struct
{
  const char *path;
  guint       n;
} SavedWait;

static gboolean
saved_n (gpointer data)
{
  SavedWait *wait = data;
  g_autoptr(ClarifyHistory) on_disk = clarify_history_new (wait->path);

  return g_list_model_get_n_items (G_LIST_MODEL (on_disk)) == wait->n;
}

/* Written in the background: on disk once the main loop has turned. */
static void
wait_saved (Fixture *f,
            guint    n)
{
  SavedWait wait = { f->path, n };

  g_assert_true (clarify_test_loop_until (saved_n, &wait, WAIT_MS));
}

static ClarifyHistoryEntry *
entry_at (ClarifyHistory *history,
          guint           position)
{
  g_autoptr(ClarifyHistoryEntry) entry = g_list_model_get_item (G_LIST_MODEL (history), position);

  g_assert_nonnull (entry);
  return entry;  /* the history keeps it */
}

static void
test_each_end (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(ClarifyRequest) answered = new_request ("a", CLARIFY_QUESTION_KIND_SINGLE, "Where to?");
  g_autoptr(ClarifyRequest) confirmed = new_request ("c", CLARIFY_QUESTION_KIND_CONFIRM, "Ship it?");
  g_autoptr(ClarifyRequest) skipped = new_request ("s", CLARIFY_QUESTION_KIND_TEXT, "Anything else?");
  g_autoptr(ClarifyRequest) cancelled = new_request ("x", CLARIFY_QUESTION_KIND_TEXT, "Name?");
  g_autoptr(ClarifyRequest) timed_out = new_request ("t", CLARIFY_QUESTION_KIND_TEXT, "Port?");
  g_autoptr(ClarifyRequest) withdrawn = new_request ("w", CLARIFY_QUESTION_KIND_TEXT, "Branch?");
  g_autoptr(ClarifyRequest) in_terminal = new_request ("m", CLARIFY_QUESTION_KIND_TEXT, "Merge?");
  const struct { ClarifyHistoryOutcome outcome; const char *question; const char *answer; } expected[] = {
    /* Claude Code's terminal answered it: not withdrawn, answered elsewhere. */
    { CLARIFY_HISTORY_ANSWERED_ELSEWHERE, "Merge?", NULL },
    { CLARIFY_HISTORY_WITHDRAWN, "Branch?", NULL },
    { CLARIFY_HISTORY_TIMED_OUT, "Port?", NULL },
    { CLARIFY_HISTORY_CANCELLED, "Name?", NULL },
    { CLARIFY_HISTORY_SKIPPED, "Anything else?", NULL },
    { CLARIFY_HISTORY_ANSWERED, "Ship it?", "Yes" },
    { CLARIFY_HISTORY_ANSWERED, "Where to?", "Grüße aus Köln, and the Dom" },
  };
  gint64 before = g_get_real_time ();
  struct stat st;

  clarify_request_set_caller (answered, "opencode");
  /* Its deadline passes: the inbox answers "timed out". */
  clarify_request_set_timeout_ms (timed_out, 1);
  for (ClarifyRequest **r = (ClarifyRequest *[]) { answered, confirmed, skipped, cancelled, withdrawn, in_terminal, NULL };
       *r; r++)
    g_assert_true (clarify_backend_add_request (f->backend, *r));

  answer (f, answered, CLARIFY_OUTCOME_ANSWERED, "koeln", "and the Dom");
  answer (f, confirmed, CLARIFY_OUTCOME_ANSWERED, "yes", NULL);
  answer (f, skipped, CLARIFY_OUTCOME_SKIPPED, NULL, NULL);
  answer (f, cancelled, CLARIFY_OUTCOME_CANCELLED, NULL, NULL);
  g_assert_true (clarify_backend_add_request (f->backend, timed_out));
  g_assert_true (clarify_test_loop_until (clarify_test_history_request_done, timed_out, WAIT_MS));
  clarify_backend_withdraw_request (f->backend, "w", CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
  clarify_backend_withdraw_request (f->backend, "m", CLARIFY_END_REASON_ANSWERED_IN_TERMINAL, NULL);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->history)), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      ClarifyHistoryEntry *entry = entry_at (f->history, i);

      g_test_message ("entry %u", i);
      g_assert_cmpint (clarify_history_entry_get_outcome (entry), ==, expected[i].outcome);
      g_assert_cmpstr (clarify_history_entry_get_question (entry), ==, expected[i].question);
      g_assert_cmpstr (clarify_history_entry_get_answer (entry), ==, expected[i].answer);
      g_assert_cmpstr (clarify_history_entry_get_connection (entry), ==, "work");
      g_assert_cmpint (clarify_history_entry_get_ended_at (entry), >=, before);
      g_assert_cmpint (clarify_history_entry_get_ended_at (entry), <=, g_get_real_time ());
    }
  g_assert_cmpstr (clarify_history_entry_get_caller (entry_at (f->history, 6)), ==, "opencode");
  g_assert_null (clarify_history_entry_get_caller (entry_at (f->history, 5)));

  /* The search folds accents, and wants every word. */
  g_assert_true (clarify_history_entry_matches (entry_at (f->history, 6), "koln dom"));
  g_assert_true (clarify_history_entry_matches (entry_at (f->history, 6), "OPENCODE"));
  g_assert_false (clarify_history_entry_matches (entry_at (f->history, 6), "koln paris"));
  g_assert_true (clarify_history_entry_matches (entry_at (f->history, 0), ""));

  /* On disk, private, with nothing but what the list shows. */
  wait_saved (f, G_N_ELEMENTS (expected));
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  {
    g_autofree char *folder = g_path_get_dirname (f->path);

    g_assert_cmpint (g_stat (folder, &st), ==, 0);
    g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  }
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (f->path, &text, NULL, NULL));
    g_assert_null (strstr (text, "http"));
    g_assert_nonnull (strstr (text, "\"answer\":\"Grüße aus Köln, and the Dom\""));
  }
}

/* A restart reads the same list back, newest first. */
static void
test_persists (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(ClarifyRequest) first = new_request ("1", CLARIFY_QUESTION_KIND_TEXT, "First?");
  g_autoptr(ClarifyRequest) second = new_request ("2", CLARIFY_QUESTION_KIND_CONFIRM, "Second?");
  g_autoptr(ClarifyHistory) again = NULL;

  g_assert_true (clarify_backend_add_request (f->backend, first));
  g_assert_true (clarify_backend_add_request (f->backend, second));
  answer (f, first, CLARIFY_OUTCOME_ANSWERED, "main", NULL);
  answer (f, second, CLARIFY_OUTCOME_ANSWERED, "no", NULL);
  wait_saved (f, 2);

  again = clarify_history_new (f->path);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 2);
  g_assert_cmpstr (clarify_history_entry_get_question (entry_at (again, 0)), ==, "Second?");
  g_assert_cmpstr (clarify_history_entry_get_answer (entry_at (again, 0)), ==, "No");
  g_assert_cmpstr (clarify_history_entry_get_question (entry_at (again, 1)), ==, "First?");
  g_assert_cmpstr (clarify_history_entry_get_answer (entry_at (again, 1)), ==, "main");
  g_assert_cmpint (clarify_history_entry_get_ended_at (entry_at (again, 1)), ==,
                   clarify_history_entry_get_ended_at (entry_at (f->history, 1)));
}

static void
count_changes_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  gint *n = user_data;

  /* What a list widget would compute from the signals alone. */
  *n += (gint) added - (gint) removed;
}

/* The 501st goes in first, the oldest goes out, on disk too. */
static void
test_cap (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(ClarifyHistory) again = NULL;
  gint seen = 0;

  g_signal_connect (f->history, "items-changed", G_CALLBACK (count_changes_cb), &seen);
  for (guint i = 0; i < CLARIFY_HISTORY_MAX + 1; i++)
    {
      g_autofree char *id = g_strdup_printf ("r%u", i);
      g_autofree char *text = g_strdup_printf ("Question %u?", i);
      g_autoptr(ClarifyRequest) request = new_request (id, CLARIFY_QUESTION_KIND_TEXT, text);

      g_assert_true (clarify_backend_add_request (f->backend, request));
      clarify_backend_withdraw_request (f->backend, id, CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
    }

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->history)), ==, CLARIFY_HISTORY_MAX);
  g_assert_cmpint (seen, ==, CLARIFY_HISTORY_MAX);
  g_assert_cmpstr (clarify_history_entry_get_question (entry_at (f->history, 0)), ==, "Question 500?");
  g_assert_cmpstr (clarify_history_entry_get_question (entry_at (f->history, CLARIFY_HISTORY_MAX - 1)), ==, "Question 1?");

  /* The burst ended within one turn of the main loop: nothing was written
   * during it, the whole list once the loop turned. */
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
  wait_saved (f, CLARIFY_HISTORY_MAX);
  again = clarify_history_new (f->path);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, CLARIFY_HISTORY_MAX);
  g_assert_cmpstr (clarify_history_entry_get_question (entry_at (again, CLARIFY_HISTORY_MAX - 1)), ==, "Question 1?");
}

/* Garbage is set aside with a warning, and the history starts empty; a
 * file of entries that are not ones is garbage too. */
static void
test_corrupt (Fixture       *f,
              gconstpointer  data)
{
  const char *files[] = {
    "{\"version\":1,\"entries\":[",
    "{\"version\":1,\"entries\":[{\"ended_at\":\"noon\",\"outcome\":\"answered\",\"question\":\"Q\"}]}",
    "{\"version\":99,\"entries\":[]}",
    "[]",
  };

  g_autofree char *folder = g_path_get_dirname (f->path);

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *bad = g_strconcat (f->path, ".bad", NULL);
      g_autofree char *kept = NULL;
      g_autoptr(ClarifyHistory) history = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) lines = NULL;

      g_file_set_contents (f->path, files[i], -1, &error);
      g_assert_no_error (error);
      g_unlink (bad);

      clarify_test_log_start ();
      history = clarify_history_new (f->path);
      lines = clarify_test_log_stop ();

      g_assert_cmpuint (g_strv_length (lines), ==, 1);
      g_assert_true (g_str_has_prefix (lines[0], "WARNING: Cannot read the history"));
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (history)), ==, 0);
      g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
      g_assert_true (g_file_get_contents (bad, &kept, NULL, NULL));
      g_assert_cmpstr (kept, ==, files[i]);
    }
}

/* Quitting does not wait for the main loop: what ended last is written at
 * once, and a write still under way in the background cannot undo it. */
static void
test_flush (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(ClarifyRequest) first = new_request ("1", CLARIFY_QUESTION_KIND_TEXT, "First?");
  g_autoptr(ClarifyHistory) again = NULL;

  g_assert_true (clarify_backend_add_request (f->backend, first));
  answer (f, first, CLARIFY_OUTCOME_ANSWERED, "main", NULL);
  wait_saved (f, 1);

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *id = g_strdup_printf ("r%u", i);
      g_autoptr(ClarifyRequest) request = new_request (id, CLARIFY_QUESTION_KIND_TEXT, "Later?");

      g_assert_true (clarify_backend_add_request (f->backend, request));
      clarify_backend_withdraw_request (f->backend, id, CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
      /* Now and then a turn, so that background writes are under way. */
      if (i % 5 == 0)
        g_main_context_iteration (NULL, FALSE);
    }
  clarify_history_flush (f->history);

  again = clarify_history_new (f->path);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 21);
  g_clear_object (&again);

  /* The background writes end; the file stays as the flush left it. */
  clarify_test_loop_for (200);
  again = clarify_history_new (f->path);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 21);
}

/* A disk that refuses the file is told once per question that ended, not
 * asked again and again; the list keeps everything. */
static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *folder = g_path_get_dirname (f->path);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  /* Where the folder should be, a file: the history cannot be written. */
  g_file_set_contents (folder, "", 0, &error);
  g_assert_no_error (error);

  clarify_test_log_start ();
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *id = g_strdup_printf ("r%u", i);
      g_autoptr(ClarifyRequest) request = new_request (id, CLARIFY_QUESTION_KIND_TEXT, "Kept?");

      g_assert_true (clarify_backend_add_request (f->backend, request));
      clarify_backend_withdraw_request (f->backend, id, CLARIFY_END_REASON_AGENT_WITHDREW, NULL);
      clarify_test_loop_for (300);
    }
  lines = clarify_test_log_stop ();

  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_true (g_str_has_prefix (lines[i], "MESSAGE: Cannot save the history"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->history)), ==, 2);
  g_unlink (folder);
}

static void
test_clear (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(ClarifyRequest) request = new_request ("1", CLARIFY_QUESTION_KIND_TEXT, "First?");
  g_autoptr(ClarifyHistory) again = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (clarify_backend_add_request (f->backend, request));
  answer (f, request, CLARIFY_OUTCOME_ANSWERED, "main", NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->history)), ==, 1);

  g_assert_true (clarify_history_clear (f->history, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->history)), ==, 0);
  again = clarify_history_new (f->path);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/history/each-end", Fixture, NULL, fixture_set_up, test_each_end, fixture_tear_down);
  g_test_add ("/history/persists", Fixture, NULL, fixture_set_up, test_persists, fixture_tear_down);
  g_test_add ("/history/cap", Fixture, NULL, fixture_set_up, test_cap, fixture_tear_down);
  g_test_add ("/history/corrupt", Fixture, NULL, fixture_set_up, test_corrupt, fixture_tear_down);
  g_test_add ("/history/flush", Fixture, NULL, fixture_set_up, test_flush, fixture_tear_down);
  g_test_add ("/history/refused", Fixture, NULL, fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/history/clear", Fixture, NULL, fixture_set_up, test_clear, fixture_tear_down);

  return g_test_run ();
}
