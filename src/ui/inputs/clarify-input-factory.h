/* clarify-input-factory.h: the ClarifyInput subclass for a question's kind
 *
 * Apart from the base class, so that ClarifyInput does not know its subclasses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "clarify-input.h"

G_BEGIN_DECLS

ClarifyInput *clarify_input_new_for_question (ClarifyQuestion    *question,
                                              const char * const *initial_values);

G_END_DECLS
