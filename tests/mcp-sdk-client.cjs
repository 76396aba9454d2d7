// mcp-sdk-client.cjs: the reference MCP TypeScript SDK client
// (@modelcontextprotocol/sdk) calling Clarify's ask_user, for test-mcp-sdk.
//
//   node mcp-sdk-client.cjs SDK_DIR http URL            (token in CLARIFY_SDK_TOKEN)
//   node mcp-sdk-client.cjs SDK_DIR stdio COMMAND ARG…
//
// SDK_DIR holds node_modules with the SDK. Two calls go out at once, each
// with the timeout CLARIFY_SDK_TIMEOUT_MS: "with-progress" passes onprogress
// (so the SDK sends a progressToken) and resetTimeoutOnProgress, as the
// SDK's documentation says a long call should; "without-progress" passes
// neither. Every outcome is one JSON line on stdout, with t, the
// milliseconds since the calls went out.
//
// SPDX-License-Identifier: GPL-3.0-or-later
'use strict';

const path = require('node:path');
const { createRequire } = require('node:module');

const [sdkDir, mode, ...target] = process.argv.slice(2);
// Any file name in SDK_DIR: the SDK resolves from its folder.
const sdk = createRequire(path.resolve(sdkDir, 'client.cjs'));
const { Client } = sdk('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = sdk('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { StdioClientTransport } = sdk('@modelcontextprotocol/sdk/client/stdio.js');

let started = Date.now();

function say (line) {
  process.stdout.write(JSON.stringify({ t: Date.now() - started, ...line }) + '\n');
}

function askUser (question) {
  return {
    name: 'ask_user',
    arguments: {
      title: 'A long question',
      questions: [{ id: 'db', question, type: 'select', options: ['PostgreSQL', 'SQLite'] }],
      timeout: 600000,
    },
  };
}

// Resolves with the call's outcome, never rejects.
function call (client, name, question, options) {
  return client.callTool(askUser(question), undefined, options).then(
    (result) => say({ event: 'result', call: name, isError: result.isError === true, text: result.content[0].text }),
    (error) => say({ event: 'error', call: name, code: error.code, message: error.message }));
}

async function main () {
  const timeout = Number(process.env.CLARIFY_SDK_TIMEOUT_MS);
  const transport = mode === 'http'
    ? new StreamableHTTPClientTransport(new URL(target[0]), {
      requestInit: { headers: { Authorization: `Bearer ${process.env.CLARIFY_SDK_TOKEN}` } },
    })
    // The whole environment, as OpenCode passes it: the SDK's default keeps
    // only HOME, LOGNAME, PATH, SHELL, TERM and USER.
    : new StdioClientTransport({ command: target[0], args: target.slice(1), env: process.env, stderr: 'inherit' });
  const client = new Client({ name: 'clarify-test-mcp-sdk', version: '1.0.0' });

  await client.connect(transport);
  const { tools } = await client.listTools();
  say({ event: 'tools', names: tools.map((tool) => tool.name) });

  started = Date.now();
  await Promise.all([
    call(client, 'with-progress', 'Which database, asked with progress?', {
      timeout,
      resetTimeoutOnProgress: true,
      onprogress: (progress) => say({ event: 'progress', call: 'with-progress', ...progress }),
    }),
    call(client, 'without-progress', 'Which database, asked without progress?', { timeout }),
  ]);
  await client.close();
}

main().catch((error) => {
  say({ event: 'fatal', message: String((error && error.stack) || error) });
  process.exit(1);
});
