/* clarify-ag3ntum-codec.h: Ag3ntum's questions in, its answer string out
 *
 * Ag3ntum's AskUserQuestion tool asks a list of questions, each with 2 to 10
 * options ({label, description?}) and an optional header and multiSelect.
 * Its web client shows every question's options, then one "Additional
 * Comments" box for the whole set, and posts one string: per answered
 * question its labels joined with ", ", the questions joined with "\n", then
 * "\n\nAdditional Comments: " and the comment. The request bodies are what
 * the web client's JSON.stringify() writes: compact.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "clarify-request.h"
#include "clarify-response.h"

G_BEGIN_DECLS

/* The id of the closing comment question (after q1 … qN). */
#define CLARIFY_AG3NTUM_COMMENTS_ID "comments"
/* What the web client sends to resume the session after an answer. */
#define CLARIFY_AG3NTUM_RESUME_TASK "Continue with the user's answer."

/* A request for the question @question_id of session @session_id. */
ClarifyRequest *clarify_ag3ntum_decode_question (const char  *session_id,
                                                 const char  *question_id,
                                                 JsonArray   *questions,
                                                 GError     **error);
/* The answer string, as the web client builds it; NULL (and @error) when
 * no option is chosen: the web client cannot submit then. */
char           *clarify_ag3ntum_encode_answer   (ClarifyRequest   *request,
                                                 ClarifyResponse  *response,
                                                 GError          **error);
/* {"question_id":"latest","answer":@answer} */
char           *clarify_ag3ntum_answer_body     (const char       *answer);
/* {"task":"Continue with the user's answer.","config":{"model":@model}},
 * with "config":{} when @model is NULL. */
char           *clarify_ag3ntum_resume_body     (const char       *model);
/* {"email":@email,"password":@password}; free with clarify_secret_free(). */
char           *clarify_ag3ntum_login_body      (const char       *email,
                                                 const char       *password);

G_END_DECLS
