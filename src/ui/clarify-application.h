/* clarify-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CLARIFY_TYPE_APPLICATION (clarify_application_get_type ())
G_DECLARE_FINAL_TYPE (ClarifyApplication, clarify_application, CLARIFY, APPLICATION, AdwApplication)

ClarifyApplication *clarify_application_new (void);

G_END_DECLS
