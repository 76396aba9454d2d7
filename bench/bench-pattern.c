/* bench-pattern.c: the worst time one answer check takes under an agent's
 * pattern, on a 10,000-character answer (issue 14: at most 50 ms)
 *
 * Not a test: it prints figures to compare between changes.
 *   bench-pattern [repeats (20)]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "clarify-question.h"
#include "clarify-validate.h"

int
main (int   argc,
      char *argv[])
{
  /* Patterns the ReDoS guard lets through; the last ones only the match
   * limit stops. */
  static const char * const patterns[] = {
    "^[a-z]+$", "^[\\w.+-]+@[\\w-]+\\.[\\w.]+$", "(a|b)+$", "^(\\w|\\d)+$", "^(a|b)+$",
    "^(?=(a|ab)+$)", "((?:a|b)|\\w)+!",
  };
  guint repeats = argc > 1 ? (guint) atoi (argv[1]) : 20;
  g_autoptr(ClarifyQuestion) question = clarify_question_new ("q", CLARIFY_QUESTION_KIND_TEXT, "Q?");
  g_autofree char *answer = g_strnfill (10000, 'a');
  const char *values[] = { answer, NULL };

  g_print ("%-32s %8s %8s  %s\n", "pattern", "max ms", "mean ms", "outcome");
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      ClarifyValidation validation;
      g_autofree char *message = NULL;
      gint64 worst = 0;
      gint64 total = 0;

      clarify_validation_init (&validation);
      validation.pattern = (char *) patterns[i];
      clarify_question_set_validation (question, &validation);

      for (guint r = 0; r < MAX (repeats, 1); r++)
        {
          gint64 start = g_get_monotonic_time ();
          gint64 took;

          g_clear_pointer (&message, g_free);
          clarify_question_check_answer (question, values, NULL, &message);
          took = g_get_monotonic_time () - start;
          worst = MAX (worst, took);
          total += took;
        }

      g_print ("%-32s %8.2f %8.2f  %s%s\n", patterns[i], worst / 1000.0, total / 1000.0 / MAX (repeats, 1),
               clarify_validate_pattern (patterns[i], NULL) ? "" : "[refused by the guard] ",
               message != NULL ? message : "passes");
    }

  return 0;
}
