/* test-model.c: the plain model objects
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "clarify-connection.h"
#include "clarify-mcp-protocol.h"
#include "clarify-request-private.h"
#include "clarify-response.h"

#include "clarify-test-log.h"
#include "clarify-test-signals.h"

static void
test_option_properties (void)
{
  g_autoptr(ClarifyOption) option = clarify_option_new ("Berlin", "ber", "Capital");
  g_autoptr(ClarifyOption) no_value = clarify_option_new ("Köln", NULL, "");
  g_autofree char *label = NULL;
  g_autofree char *value = NULL;
  g_autofree char *description = NULL;

  g_assert_cmpstr (clarify_option_get_label (option), ==, "Berlin");
  g_assert_cmpstr (clarify_option_get_value (option), ==, "ber");
  g_assert_cmpstr (clarify_option_get_description (option), ==, "Capital");

  /* Property lookups are what GtkExpressions in the list views use. */
  g_object_get (option, "label", &label, "value", &value, "description", &description, NULL);
  g_assert_cmpstr (label, ==, "Berlin");
  g_assert_cmpstr (value, ==, "ber");
  g_assert_cmpstr (description, ==, "Capital");

  g_assert_cmpstr (clarify_option_get_value (no_value), ==, "Köln");
  g_assert_null (clarify_option_get_description (no_value));
}

static void
test_kind_and_outcome_names (void)
{
  g_assert_cmpstr (clarify_question_kind_to_string (CLARIFY_QUESTION_KIND_TEXT), ==, "text");
  g_assert_cmpstr (clarify_question_kind_to_string (CLARIFY_QUESTION_KIND_SINGLE), ==, "single");
  g_assert_cmpstr (clarify_question_kind_to_string (CLARIFY_QUESTION_KIND_MULTI), ==, "multi");
  g_assert_cmpstr (clarify_question_kind_to_string (CLARIFY_QUESTION_KIND_CONFIRM), ==, "confirm");
  g_assert_cmpstr (clarify_question_kind_to_string (CLARIFY_QUESTION_KIND_NUMBER), ==, "number");
  g_assert_cmpstr (clarify_question_kind_to_string (CLARIFY_QUESTION_KIND_DATE), ==, "date");
  g_assert_cmpstr (clarify_question_kind_to_string (CLARIFY_QUESTION_KIND_DATE_RANGE), ==, "date_range");

  g_assert_cmpstr (clarify_outcome_to_string (CLARIFY_OUTCOME_ANSWERED), ==, "answered");
  g_assert_cmpstr (clarify_outcome_to_string (CLARIFY_OUTCOME_SKIPPED), ==, "skipped");
  g_assert_cmpstr (clarify_outcome_to_string (CLARIFY_OUTCOME_CANCELLED), ==, "cancelled");
  g_assert_cmpstr (clarify_outcome_to_string (CLARIFY_OUTCOME_TIMED_OUT), ==, "timed_out");

  for (ClarifyOutcome o = CLARIFY_OUTCOME_ANSWERED; o <= CLARIFY_OUTCOME_TIMED_OUT; o++)
    {
      ClarifyOutcome parsed = -1;

      g_assert_true (clarify_outcome_from_string (clarify_outcome_to_string (o), &parsed));
      g_assert_cmpint (parsed, ==, o);
    }

  g_assert_false (clarify_outcome_from_string ("timed-out", NULL));
  g_assert_false (clarify_outcome_from_string (NULL, NULL));
}

/* The enums have GTypes, so their properties say which enum they hold. */
static void
test_enum_properties (void)
{
  g_autoptr(GTypeClass) question_class = g_type_class_ref (CLARIFY_TYPE_QUESTION);
  g_autoptr(GTypeClass) response_class = g_type_class_ref (CLARIFY_TYPE_RESPONSE);
  GParamSpec *kind = g_object_class_find_property (G_OBJECT_CLASS (question_class), "kind");
  GParamSpec *outcome = g_object_class_find_property (G_OBJECT_CLASS (response_class), "outcome");
  g_autoptr(GEnumClass) state_class = g_type_class_ref (CLARIFY_TYPE_CONNECTION_STATE);

  g_assert_true (G_IS_PARAM_SPEC_ENUM (kind));
  g_assert_cmpint (kind->value_type, ==, CLARIFY_TYPE_QUESTION_KIND);
  g_assert_true (G_IS_PARAM_SPEC_ENUM (outcome));
  g_assert_cmpint (outcome->value_type, ==, CLARIFY_TYPE_OUTCOME);

  g_assert_cmpstr (g_enum_get_value (state_class, CLARIFY_CONNECTION_STATE_FAILED)->value_nick, ==, "failed");
  g_assert_true (G_TYPE_IS_ENUM (CLARIFY_TYPE_ERROR));
  g_assert_true (G_TYPE_IS_FLAGS (CLARIFY_TYPE_MCP_REPLY_FLAGS));
}

static void
test_validation_struct (void)
{
  ClarifyValidation v;
  ClarifyValidation copy;

  clarify_validation_init (&v);
  g_assert_cmpint (v.min_length, ==, -1);
  g_assert_cmpint (v.max_length, ==, -1);
  g_assert_false (v.has_min);
  g_assert_false (v.has_max);
  g_assert_cmpfloat (v.step, ==, 0.0);
  g_assert_null (v.pattern);
  g_assert_null (v.message);

  v.pattern = g_strdup ("^[a-z]+$");
  v.message = g_strdup ("lower case only");
  v.has_max = TRUE;
  v.max = 3.5;
  clarify_validation_copy (&v, &copy);
  g_assert_true (copy.pattern != v.pattern);
  g_assert_cmpstr (copy.pattern, ==, "^[a-z]+$");
  g_assert_cmpstr (copy.message, ==, "lower case only");
  g_assert_true (copy.has_max);
  g_assert_cmpfloat (copy.max, ==, 3.5);

  clarify_validation_clear (&v);
  g_assert_null (v.pattern);
  g_assert_cmpint (v.max_length, ==, -1);
  clarify_validation_clear (&copy);
}

static void
test_question (void)
{
  g_autoptr(ClarifyQuestion) q = clarify_question_new ("q1", CLARIFY_QUESTION_KIND_SINGLE, "Which city?");
  ClarifyValidation v;
  const char *defaults[] = { "ber", NULL };
  guint notified = 0;

  g_assert_cmpstr (clarify_question_get_id (q), ==, "q1");
  g_assert_cmpint (clarify_question_get_kind (q), ==, CLARIFY_QUESTION_KIND_SINGLE);
  g_assert_cmpstr (clarify_question_get_text (q), ==, "Which city?");
  g_assert_null (clarify_question_get_header (q));
  g_assert_false (clarify_question_get_allow_other (q));
  g_assert_false (clarify_question_get_skippable (q));
  g_assert_nonnull (clarify_question_get_default_values (q));
  g_assert_null (clarify_question_get_default_values (q)[0]);
  g_assert_cmpint (clarify_question_get_validation (q)->min_length, ==, -1);

  g_signal_connect_swapped (q, "notify::text", G_CALLBACK (clarify_test_count_emission), &notified);
  clarify_question_set_text (q, "Which city?");
  g_assert_cmpuint (notified, ==, 0);
  clarify_question_set_text (q, "Where?");
  g_assert_cmpuint (notified, ==, 1);

  for (guint i = 0; i < 3; i++)
    {
      static const char * const labels[] = { "Berlin", "Hamburg", "ham" };
      static const char * const values[] = { "ber", "ham", NULL };
      g_autoptr(ClarifyOption) option = clarify_option_new (labels[i], values[i], NULL);

      clarify_question_add_option (q, option);
    }

  g_assert_cmpuint (clarify_question_get_n_options (q), ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (clarify_question_get_options (q)), ==, 3);
  g_assert_true (g_list_model_get_item_type (clarify_question_get_options (q)) == CLARIFY_TYPE_OPTION);
  g_assert_cmpstr (clarify_option_get_label (clarify_question_get_option (q, 1)), ==, "Hamburg");
  g_assert_null (clarify_question_get_option (q, 3));

  /* By value, then by label; a value wins over an equal label. */
  g_assert_true (clarify_question_find_option (q, "ber") == clarify_question_get_option (q, 0));
  g_assert_true (clarify_question_find_option (q, "Berlin") == clarify_question_get_option (q, 0));
  g_assert_true (clarify_question_find_option (q, "ham") == clarify_question_get_option (q, 1));
  g_assert_null (clarify_question_find_option (q, "Paris"));
  g_assert_null (clarify_question_find_option (q, NULL));

  clarify_validation_init (&v);
  v.pattern = g_strdup ("^x$");
  v.min_length = 2;
  clarify_question_set_validation (q, &v);
  clarify_validation_clear (&v);
  g_assert_cmpstr (clarify_question_get_validation (q)->pattern, ==, "^x$");
  g_assert_cmpint (clarify_question_get_validation (q)->min_length, ==, 2);
  /* Setting its own validation again must not free what it copies from. */
  clarify_question_set_validation (q, clarify_question_get_validation (q));
  g_assert_cmpstr (clarify_question_get_validation (q)->pattern, ==, "^x$");
  clarify_question_set_validation (q, NULL);
  g_assert_null (clarify_question_get_validation (q)->pattern);
  g_assert_cmpint (clarify_question_get_validation (q)->min_length, ==, -1);

  clarify_question_set_default_values (q, defaults);
  g_assert_cmpstrv (clarify_question_get_default_values (q), defaults);
  clarify_question_set_default_values (q, clarify_question_get_default_values (q));
  g_assert_cmpstrv (clarify_question_get_default_values (q), defaults);
  clarify_question_set_default_values (q, NULL);
  g_assert_null (clarify_question_get_default_values (q)[0]);

  clarify_question_set_text (q, NULL);
  g_assert_cmpstr (clarify_question_get_text (q), ==, "");
}

static void
on_withdrawn (ClarifyRequest   *request,
              ClarifyEndReason  reason,
              const char       *detail,
              GArray           *reasons)
{
  g_array_append_val (reasons, reason);
  g_assert_cmpstr (detail, ==, "in the terminal");
  /* A handler that withdraws again must not cause a second emission. */
  clarify_request_withdraw (request, CLARIFY_END_REASON_SESSION_ENDED, "again");
}

static void
test_request (void)
{
  g_autoptr(ClarifyRequest) request = NULL;
  g_autoptr(ClarifyQuestion) q1 = clarify_question_new ("q1", CLARIFY_QUESTION_KIND_TEXT, "Name?");
  g_autoptr(GArray) reasons = g_array_new (FALSE, FALSE, sizeof (ClarifyEndReason));
  gint64 before = g_get_monotonic_time ();
  guint withdrawn_notified = 0;
  gboolean withdrawn = FALSE;

  request = clarify_request_new ("r-1");
  g_assert_cmpint (clarify_request_get_received_at (request), >=, before);
  g_assert_cmpint (clarify_request_get_received_at (request), <=, g_get_monotonic_time ());
  g_assert_cmpstr (clarify_request_get_id (request), ==, "r-1");
  g_assert_true (clarify_request_get_cancellable (request));
  g_assert_false (clarify_request_get_skippable (request));
  g_assert_cmpuint (clarify_request_get_timeout_ms (request), ==, 0);
  g_assert_cmpint (clarify_request_get_deadline (request), ==, 0);
  g_assert_null (clarify_request_get_title (request));

  clarify_request_set_connection (request, "work", "opencode");
  clarify_request_set_project (request, "/home/me/src");
  clarify_request_set_session (request, "ses_1");
  clarify_request_set_title (request, "Title");
  clarify_request_set_context (request, "Context");
  g_assert_cmpstr (clarify_request_get_connection_name (request), ==, "work");
  g_assert_cmpstr (clarify_request_get_connection_kind (request), ==, "opencode");
  g_assert_cmpstr (clarify_request_get_project (request), ==, "/home/me/src");
  g_assert_cmpstr (clarify_request_get_session (request), ==, "ses_1");
  g_assert_cmpstr (clarify_request_get_title (request), ==, "Title");
  g_assert_cmpstr (clarify_request_get_context (request), ==, "Context");

  clarify_request_add_question (request, q1);
  g_assert_cmpuint (clarify_request_get_n_questions (request), ==, 1);
  g_assert_true (clarify_request_get_question (request, 0) == q1);
  g_assert_null (clarify_request_get_question (request, 1));

  clarify_request_set_received_at (request, 1000000);
  clarify_request_set_timeout_ms (request, 2500);
  g_assert_cmpint (clarify_request_get_deadline (request), ==, 1000000 + 2500000);

  g_signal_connect (request, "withdrawn", G_CALLBACK (on_withdrawn), reasons);
  g_signal_connect_swapped (request, "notify::withdrawn", G_CALLBACK (clarify_test_count_emission), &withdrawn_notified);
  g_assert_false (clarify_request_is_withdrawn (request));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_NONE);
  clarify_request_withdraw (request, CLARIFY_END_REASON_ANSWERED_ELSEWHERE, "in the terminal");
  clarify_request_withdraw (request, CLARIFY_END_REASON_SESSION_ENDED, NULL);
  g_assert_true (clarify_request_is_withdrawn (request));
  g_assert_cmpint (clarify_request_get_end_reason (request), ==, CLARIFY_END_REASON_ANSWERED_ELSEWHERE);
  g_assert_cmpstr (clarify_request_get_end_detail (request), ==, "in the terminal");
  g_assert_cmpuint (reasons->len, ==, 1);
  g_assert_cmpint (g_array_index (reasons, ClarifyEndReason, 0), ==, CLARIFY_END_REASON_ANSWERED_ELSEWHERE);
  g_assert_cmpuint (withdrawn_notified, ==, 1);
  g_object_get (request, "withdrawn", &withdrawn, NULL);
  g_assert_true (withdrawn);
}

static void
count_destroy (gpointer data)
{
  (*(guint *) data)++;
}

static void
test_request_backend_data (void)
{
  ClarifyRequest *request = clarify_request_new ("r");
  guint destroyed_a = 0;
  guint destroyed_b = 0;

  clarify_request_set_backend_data (request, &destroyed_a, count_destroy);
  g_assert_true (clarify_request_get_backend_data (request) == &destroyed_a);
  clarify_request_set_backend_data (request, &destroyed_b, count_destroy);
  g_assert_cmpuint (destroyed_a, ==, 1);
  g_assert_cmpuint (destroyed_b, ==, 0);
  g_object_unref (request);
  g_assert_cmpuint (destroyed_b, ==, 1);
}

static void
test_response (void)
{
  g_autoptr(ClarifyResponse) response = clarify_response_new ("r-1", CLARIFY_OUTCOME_ANSWERED);
  const char *values[] = { "a", "b", NULL };
  const ClarifyAnswer *answer;

  g_assert_cmpstr (clarify_response_get_request_id (response), ==, "r-1");
  g_assert_cmpint (clarify_response_get_outcome (response), ==, CLARIFY_OUTCOME_ANSWERED);
  g_assert_cmpuint (clarify_response_get_n_answers (response), ==, 0);

  clarify_response_add_answer (response, "q1", values, NULL, FALSE);
  clarify_response_add_answer (response, "q2", NULL, "my own", FALSE);
  clarify_response_add_answer (response, "q3", NULL, NULL, TRUE);
  g_assert_cmpuint (clarify_response_get_n_answers (response), ==, 3);

  answer = clarify_response_get_answer (response, 0);
  g_assert_cmpstr (answer->question_id, ==, "q1");
  g_assert_true ((const char *) answer->values[0] != values[0]);
  g_assert_cmpstrv (answer->values, values);
  g_assert_null (answer->custom_text);
  g_assert_false (answer->skipped);

  answer = clarify_response_lookup_answer (response, "q2");
  g_assert_nonnull (answer);
  g_assert_nonnull (answer->values);
  g_assert_null (answer->values[0]);
  g_assert_cmpstr (answer->custom_text, ==, "my own");

  answer = clarify_response_lookup_answer (response, "q3");
  g_assert_true (answer->skipped);
  g_assert_null (clarify_response_lookup_answer (response, "q4"));
  g_assert_null (clarify_response_get_answer (response, 3));
}

int
main (int   argc,
      char *argv[])
{
  clarify_test_log_init ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/option/properties", test_option_properties);
  g_test_add_func ("/model/names", test_kind_and_outcome_names);
  g_test_add_func ("/model/enum-properties", test_enum_properties);
  g_test_add_func ("/model/validation-struct", test_validation_struct);
  g_test_add_func ("/model/question", test_question);
  g_test_add_func ("/model/request", test_request);
  g_test_add_func ("/model/request/backend-data", test_request_backend_data);
  g_test_add_func ("/model/response", test_response);

  return g_test_run ();
}
