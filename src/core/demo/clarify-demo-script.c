/* clarify-demo-script.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "clarify-demo-script.h"
#include "clarify-validate.h"

/* The walkthrough is data: one table row per request, turned into the JSON
 * form with JsonBuilder when it is sent. */

/* A text is translated with _() when only @en is set. With @de it is sent as
 * the localized object {"en":…,"de":…}, to show that agents may do that. */
typedef struct
{
  const char *en;
  const char *de;
} DemoText;

typedef struct
{
  DemoText    label;
  const char *value;
  DemoText    description;
} DemoOption;

typedef struct
{
  const char          *id;
  ClarifyQuestionKind  kind;
  DemoText             text;
  DemoText             header;
  DemoText             placeholder;
  const DemoOption    *options;
  guint                n_options;
  gboolean             allow_other;
  gboolean             skippable;
  const char          *pattern;
  DemoText             message;
  gboolean             has_range;
  double               min;
  double               max;
  double               step;
  int                  max_length;
  const char * const  *defaults;
} DemoQuestion;

typedef struct
{
  const char         *id;
  DemoText            title;
  DemoText            context;
  const DemoQuestion *questions;
  guint               n_questions;
  guint               timeout_ms;
} DemoRequest;

#define T(s)          { s, NULL }
#define L(en, de)     { en, de }
#define OPTIONS(a)    a, G_N_ELEMENTS (a)
#define QUESTIONS(a)  a, G_N_ELEMENTS (a)

static const DemoQuestion project_name_questions[] = {
  { .id = "project-name", .kind = CLARIFY_QUESTION_KIND_TEXT,
    .text = T (N_("What should the new project be called?")),
    .header = T (N_("Project name")),
    /* Translators: an example project name; lowercase letters, digits and hyphens only */
    .placeholder = T (N_("my-project")),
    .pattern = "^[a-z][a-z0-9-]*$",
    .message = T (N_("Start with a lowercase letter and use only lowercase letters, digits and hyphens.")),
    .max_length = 40 },
};

static const DemoOption database_options[] = {
  { T ("PostgreSQL"), "postgresql", T (N_("Relational, with JSON columns and strong consistency")) },
  { T ("SQLite"), "sqlite", T (N_("A single file and no server to run")) },
  { T ("Redis"), "redis", T (N_("An in-memory key-value store, best as a cache")) },
};

static const DemoQuestion database_questions[] = {
  { .id = "database", .kind = CLARIFY_QUESTION_KIND_SINGLE,
    .text = T (N_("Which database should the new service use?")),
    .header = T (N_("Database")),
    .options = OPTIONS (database_options) },
};

/* City names keep their local spelling: the accents are what the search
 * ignores ("zurich" finds Zürich). */
static const DemoOption region_options[] = {
  { T ("Berlin"), "berlin", T (N_("Germany")) },
  { T ("Düsseldorf"), "duesseldorf", T (N_("Germany")) },
  { T ("Genève"), "geneva", T (N_("Switzerland")) },
  { T ("Köln"), "cologne", T (N_("Germany")) },
  { T ("København"), "copenhagen", T (N_("Denmark")) },
  { T ("München"), "munich", T (N_("Germany")) },
  { T ("Wien"), "vienna", T (N_("Austria")) },
  { T ("Zürich"), "zurich", T (N_("Switzerland")) },
};

static const DemoQuestion region_questions[] = {
  { .id = "region", .kind = CLARIFY_QUESTION_KIND_SINGLE,
    .text = T (N_("Where should the staging server run?")),
    .header = T (N_("Region")),
    .options = OPTIONS (region_options) },
};

static const DemoOption checks_options[] = {
  { T (N_("Unit tests")), "unit", T (N_("Fast, run on every push")) },
  { T (N_("Linter")), "lint", T (N_("Style and common mistakes")) },
  { T (N_("Type checks")), "types", T (N_("Static analysis of the whole tree")) },
  { T (N_("Dependency audit")), "audit", T (N_("Known vulnerabilities in dependencies")) },
};

static const char * const checks_defaults[] = { "unit", "lint", NULL };

static const DemoQuestion checks_questions[] = {
  { .id = "checks", .kind = CLARIFY_QUESTION_KIND_MULTI,
    .text = T (N_("Which checks should run on every merge request?")),
    .header = T (N_("Checks")),
    .options = OPTIONS (checks_options),
    .defaults = checks_defaults },
};

/* SPDX identifiers are names, not words: not translated. */
static const DemoOption license_options[] = {
  { T ("GPL-3.0-or-later"), "GPL-3.0-or-later", T (N_("Strong copyleft")) },
  { T ("MIT"), "MIT", T (N_("Short and permissive")) },
  { T ("Apache-2.0"), "Apache-2.0", T (N_("Permissive, with a patent grant")) },
};

static const DemoQuestion license_questions[] = {
  { .id = "license", .kind = CLARIFY_QUESTION_KIND_SINGLE,
    .text = T (N_("Which license should the project use?")),
    .header = T (N_("License")),
    .options = OPTIONS (license_options),
    .allow_other = TRUE },
};

static const DemoQuestion migrate_questions[] = {
  { .id = "migrate", .kind = CLARIFY_QUESTION_KIND_CONFIRM,
    .text = T (N_("Run the database migrations now?")),
    .header = T (N_("Migrations")) },
};

static const char * const workers_defaults[] = { "4", NULL };

static const DemoQuestion workers_questions[] = {
  { .id = "workers", .kind = CLARIFY_QUESTION_KIND_NUMBER,
    .text = T (N_("How many worker threads should the service start?")),
    .header = T (N_("Workers")),
    .has_range = TRUE, .min = 1, .max = 64, .step = 1,
    .defaults = workers_defaults },
};

static const DemoQuestion freeze_questions[] = {
  { .id = "freeze", .kind = CLARIFY_QUESTION_KIND_DATE,
    .text = T (N_("On which day should the feature freeze begin?")),
    .header = T (N_("Feature freeze")),
    .skippable = TRUE },
};

static const DemoQuestion on_call_questions[] = {
  { .id = "on-call", .kind = CLARIFY_QUESTION_KIND_DATE_RANGE,
    .text = T (N_("Which days will you be on call?")),
    .header = T (N_("On call")) },
};

static const DemoOption branch_options[] = {
  { T ("main"), "main", T (N_("Where development happens")) },
  { T ("stable"), "stable", T (N_("The maintenance branch")) },
};

static const DemoQuestion release_questions[] = {
  { .id = "version", .kind = CLARIFY_QUESTION_KIND_TEXT,
    .text = T (N_("Which version number should the release get?")),
    .header = T (N_("Version")),
    .placeholder = T ("1.4.0"),
    .pattern = "^[0-9]+\\.[0-9]+\\.[0-9]+$",
    .message = T (N_("Use the form MAJOR.MINOR.PATCH, for example 1.4.0.")) },
  { .id = "branch", .kind = CLARIFY_QUESTION_KIND_SINGLE,
    .text = T (N_("Which branch should be tagged?")),
    .header = T (N_("Branch")),
    .options = OPTIONS (branch_options) },
  { .id = "notes", .kind = CLARIFY_QUESTION_KIND_CONFIRM,
    .text = T (N_("Publish the release notes on the website?")),
    .header = T (N_("Release notes")) },
};

static const DemoOption deploy_options[] = {
  { T (N_("Deploy now")), "now", T (N_("Rolls out to all servers at once")) },
  { T (N_("Canary first")), "canary", T (N_("Starts with a small share of the traffic")) },
  { T (N_("Wait until tomorrow")), "wait", T (N_("Keeps the current version running")) },
};

static const DemoQuestion deploy_questions[] = {
  { .id = "deploy", .kind = CLARIFY_QUESTION_KIND_SINGLE,
    .text = T (N_("How should the new version go to production?")),
    .header = T (N_("Deployment")),
    .options = OPTIONS (deploy_options) },
};

/* Sent as {"en":…,"de":…} objects; Clarify picks by the user's language. */
static const DemoOption channel_options[] = {
  { L ("Stable", "Stabil"), "stable", L ("For everyone", "Für alle") },
  { L ("Beta", "Beta"), "beta", L ("For testers", "Für Testerinnen und Tester") },
  { L ("Nightly", "Nightly"), "nightly", L ("Built every night", "Jede Nacht neu gebaut") },
};

static const DemoQuestion channel_questions[] = {
  { .id = "channel", .kind = CLARIFY_QUESTION_KIND_SINGLE,
    .text = L ("Which channel should receive this build?",
               "Welcher Kanal soll diesen Build erhalten?"),
    .header = L ("Channel", "Kanal"),
    .options = OPTIONS (channel_options) },
};

static const DemoRequest walkthrough[] = {
  { "demo-project-name",
    T (N_("New project")),
    T (N_("The demo agent is setting up a repository and needs a name for it.")),
    QUESTIONS (project_name_questions), 0 },
  { "demo-database",
    T (N_("Database")),
    T (N_("Pick one of three; each choice explains itself.")),
    QUESTIONS (database_questions), 0 },
  { "demo-region",
    T (N_("Staging server")),
    T (N_("Type to search the list; accents do not matter.")),
    QUESTIONS (region_questions), 0 },
  { "demo-checks",
    T (N_("Continuous integration")),
    T (N_("Choose as many as you like.")),
    QUESTIONS (checks_questions), 0 },
  { "demo-license",
    T (N_("License")),
    T (N_("None of these? Choose “Other…” and type your own.")),
    QUESTIONS (license_questions), 0 },
  { "demo-migrate",
    T (N_("Database migrations")),
    T (N_("Two new tables and one index. The migration can be rolled back.")),
    QUESTIONS (migrate_questions), 0 },
  { "demo-workers",
    T (N_("Worker threads")),
    T (N_("Between 1 and 64.")),
    QUESTIONS (workers_questions), 0 },
  { "demo-freeze",
    T (N_("Feature freeze")),
    T (N_("You may skip this one.")),
    QUESTIONS (freeze_questions), 0 },
  { "demo-on-call",
    T (N_("On-call duty")),
    T (N_("The first and the last day.")),
    QUESTIONS (on_call_questions), 0 },
  { "demo-release",
    T (N_("Release")),
    T (N_("Three questions about the next release.")),
    QUESTIONS (release_questions), 0 },
  { "demo-deploy",
    T (N_("Deployment window")),
    T (N_("The deployment window closes in one minute. Without an answer the agent waits until tomorrow.")),
    QUESTIONS (deploy_questions), 60 * 1000 },
  { "demo-channel",
    L ("Release channel", "Veröffentlichungskanal"),
    L ("This request carries English and German text; Clarify shows the one in your language.",
       "Diese Anfrage enthält englischen und deutschen Text; Clarify zeigt den in Ihrer Sprache."),
    QUESTIONS (channel_questions), 0 },
};

#undef T
#undef L
#undef OPTIONS
#undef QUESTIONS

guint
clarify_demo_script_get_n_requests (void)
{
  return G_N_ELEMENTS (walkthrough);
}

const char *
clarify_demo_script_get_id (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (walkthrough), NULL);

  return walkthrough[index].id;
}

static gboolean
demo_text_is_set (const DemoText *text)
{
  return text->en != NULL;
}

static void
add_text_member (JsonBuilder    *builder,
                 const char     *member,
                 const DemoText *text)
{
  if (!demo_text_is_set (text))
    return;

  json_builder_set_member_name (builder, member);

  if (text->de == NULL)
    {
      json_builder_add_string_value (builder, _(text->en));
      return;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "en");
  json_builder_add_string_value (builder, text->en);
  json_builder_set_member_name (builder, "de");
  json_builder_add_string_value (builder, text->de);
  json_builder_end_object (builder);
}

static void
add_question (JsonBuilder        *builder,
              const DemoQuestion *question)
{
  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, question->id);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, clarify_question_kind_to_string (question->kind));
  add_text_member (builder, "text", &question->text);
  add_text_member (builder, "header", &question->header);
  add_text_member (builder, "placeholder", &question->placeholder);

  if (question->n_options > 0)
    {
      json_builder_set_member_name (builder, "options");
      json_builder_begin_array (builder);
      for (guint i = 0; i < question->n_options; i++)
        {
          const DemoOption *option = &question->options[i];

          json_builder_begin_object (builder);
          add_text_member (builder, "label", &option->label);
          json_builder_set_member_name (builder, "value");
          json_builder_add_string_value (builder, option->value);
          add_text_member (builder, "description", &option->description);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  if (question->allow_other)
    {
      json_builder_set_member_name (builder, "allow_other");
      json_builder_add_boolean_value (builder, TRUE);
    }

  if (question->skippable)
    {
      json_builder_set_member_name (builder, "skippable");
      json_builder_add_boolean_value (builder, TRUE);
    }

  if (question->pattern != NULL || question->has_range || question->max_length > 0)
    {
      json_builder_set_member_name (builder, "validation");
      json_builder_begin_object (builder);
      if (question->pattern != NULL)
        {
          json_builder_set_member_name (builder, "pattern");
          json_builder_add_string_value (builder, question->pattern);
        }
      add_text_member (builder, "message", &question->message);
      if (question->has_range)
        {
          json_builder_set_member_name (builder, "min");
          json_builder_add_double_value (builder, question->min);
          json_builder_set_member_name (builder, "max");
          json_builder_add_double_value (builder, question->max);
          json_builder_set_member_name (builder, "step");
          json_builder_add_double_value (builder, question->step);
        }
      if (question->max_length > 0)
        {
          json_builder_set_member_name (builder, "max_length");
          json_builder_add_int_value (builder, question->max_length);
        }
      json_builder_end_object (builder);
    }

  if (question->defaults != NULL)
    {
      json_builder_set_member_name (builder, "default");
      if (question->kind == CLARIFY_QUESTION_KIND_MULTI ||
          question->kind == CLARIFY_QUESTION_KIND_DATE_RANGE)
        {
          json_builder_begin_array (builder);
          for (guint i = 0; question->defaults[i] != NULL; i++)
            json_builder_add_string_value (builder, question->defaults[i]);
          json_builder_end_array (builder);
        }
      else
        {
          json_builder_add_string_value (builder, question->defaults[0]);
        }
    }

  json_builder_end_object (builder);
}

JsonNode *
clarify_demo_script_build_request (guint index)
{
  g_autoptr(JsonBuilder) builder = NULL;
  const DemoRequest *request;

  g_return_val_if_fail (index < G_N_ELEMENTS (walkthrough), NULL);

  request = &walkthrough[index];
  builder = json_builder_new ();

  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, request->id);
  add_text_member (builder, "title", &request->title);
  add_text_member (builder, "context", &request->context);

  if (request->timeout_ms > 0)
    {
      json_builder_set_member_name (builder, "timeout_ms");
      json_builder_add_int_value (builder, request->timeout_ms);
    }

  json_builder_set_member_name (builder, "questions");
  json_builder_begin_array (builder);
  for (guint i = 0; i < request->n_questions; i++)
    add_question (builder, &request->questions[i]);
  json_builder_end_array (builder);

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static const char *
question_label (ClarifyQuestion *question)
{
  const char *header = clarify_question_get_header (question);

  return header && *header ? header : clarify_question_get_text (question);
}

/* The answer to one question as a person would read it back. */
static char *
describe_answer (ClarifyQuestion     *question,
                 const ClarifyAnswer *answer)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *joined = NULL;

  if (answer == NULL || answer->skipped)
    /* Translators: %s is a question's short label, e.g. "Database" */
    return g_strdup_printf (_("%s: skipped"), question_label (question));

  for (guint i = 0; answer->values && answer->values[i]; i++)
    {
      const char *value = answer->values[i];
      ClarifyOption *option;

      switch (clarify_question_get_kind (question))
        {
        case CLARIFY_QUESTION_KIND_CONFIRM:
          g_ptr_array_add (parts, g_strdup (g_str_equal (value, "yes") ? _("Yes") : _("No")));
          break;

        case CLARIFY_QUESTION_KIND_SINGLE:
        case CLARIFY_QUESTION_KIND_MULTI:
          option = clarify_question_find_option (question, value);
          g_ptr_array_add (parts, g_strdup (option ? clarify_option_get_label (option) : value));
          break;

        case CLARIFY_QUESTION_KIND_TEXT:
        case CLARIFY_QUESTION_KIND_NUMBER:
        case CLARIFY_QUESTION_KIND_DATE:
        case CLARIFY_QUESTION_KIND_DATE_RANGE:
        default:
          g_ptr_array_add (parts, g_strdup (value));
          break;
        }
    }

  if (answer->custom_text != NULL && *answer->custom_text != '\0')
    /* Translators: an answer the user typed, quoted in the demo's confirmation */
    g_ptr_array_add (parts, g_strdup_printf (_("“%s”"), answer->custom_text));

  g_ptr_array_add (parts, NULL);

  if (clarify_question_get_kind (question) == CLARIFY_QUESTION_KIND_DATE_RANGE)
    joined = g_strjoinv (" – ", (char **) parts->pdata);
  else
    joined = g_strjoinv (", ", (char **) parts->pdata);

  return g_strdup_printf ("%s: %s", question_label (question), joined);
}

char *
clarify_demo_script_summarize (ClarifyRequest  *request,
                               ClarifyResponse *response)
{
  const char *title = clarify_request_get_title (request);
  g_autoptr(GPtrArray) lines = NULL;

  if (title == NULL)
    title = question_label (clarify_request_get_question (request, 0));

  switch (clarify_response_get_outcome (response))
    {
    case CLARIFY_OUTCOME_SKIPPED:
      /* Translators: %s is the title of a request */
      return g_strdup_printf (_("You skipped “%s”."), title);

    case CLARIFY_OUTCOME_CANCELLED:
      /* Translators: %s is the title of a request */
      return g_strdup_printf (_("You cancelled “%s”."), title);

    case CLARIFY_OUTCOME_TIMED_OUT:
      /* Translators: %s is the title of a request */
      return g_strdup_printf (_("“%s” timed out without an answer."), title);

    case CLARIFY_OUTCOME_ANSWERED:
    default:
      break;
    }

  lines = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);

      g_ptr_array_add (lines, describe_answer (question,
                                               clarify_response_lookup_answer (response, clarify_question_get_id (question))));
    }
  g_ptr_array_add (lines, NULL);

  return g_strjoinv ("; ", (char **) lines->pdata);
}

/* What a careful agent checks before it acts on an answer. */
gboolean
clarify_demo_script_check_response (ClarifyRequest   *request,
                                    ClarifyResponse  *response,
                                    char            **message)
{
  if (clarify_response_get_outcome (response) != CLARIFY_OUTCOME_ANSWERED)
    return TRUE;

  for (guint i = 0; i < clarify_request_get_n_questions (request); i++)
    {
      ClarifyQuestion *question = clarify_request_get_question (request, i);
      const ClarifyAnswer *answer = clarify_response_lookup_answer (response, clarify_question_get_id (question));

      if (answer == NULL)
        {
          *message = g_strdup_printf ("No answer to question “%s”", clarify_question_get_id (question));
          return FALSE;
        }

      if (answer->skipped)
        {
          if (!clarify_question_get_skippable (question))
            {
              *message = g_strdup_printf ("Question “%s” may not be skipped", clarify_question_get_id (question));
              return FALSE;
            }
          continue;
        }

      if (!clarify_question_check_answer (question, (const char * const *) answer->values,
                                          answer->custom_text, message))
        return FALSE;
    }

  return TRUE;
}
