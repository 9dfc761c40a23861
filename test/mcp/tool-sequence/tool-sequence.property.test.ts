import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { connectHttp } from '../../helpers/mcp.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { checkEverything, checkState } from './checks.js';
import { sequenceArb } from './command-arbitraries.js';
import { runCommand } from './run-command.js';
import { Session } from './session.js';

/**
 * Model-based: random sequences of MCP tool calls (products and variants with texts and features,
 * texts, features, groups and memberships), valid and invalid, through the SDK client against one
 * running server, each run on a fresh workspace. Every call's outcome is predicted by a small
 * in-test model (success, or the error code and REST status in the order the services check),
 * and after every call the REST interface must tell the model's story: the product list, the
 * group tree, and the texts and features of every product the call touched. A failing call
 * must change nothing (all or nothing), and where REST has the same operation it must fail the
 * same way. Timestamps are modelled too (the test clock moves one second per call): a call
 * touches the updatedAt of exactly the products it changes (and their main products). At the end
 * of each sequence every product is read through REST and get_product.
 *
 * SEQ_DEBUG=1 prints every call with its answer, and the errors the server logs (INTERNAL).
 */

const SEED = 20261124;
const NUM_RUNS = 25;

let server: TestServer;
let client: Client;
let session: Session;

beforeAll(async () => {
  server = await startServer();
  const token = await server.login();
  client = await connectHttp(server.baseUrl, token);
  if (process.env.SEQ_DEBUG) {
    const fastify = (server.app.rest as unknown as { app: { log: { error: unknown } } }).app;
    fastify.log.error = (...args: unknown[]) => console.log('SERVER ERROR', ...args);
  }
  session = new Session(server, token, client);
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe('MCP tool sequences against a model, checked through REST', () => {
  it('every call does what the model predicts, and a failing call changes nothing', async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(sequenceArb, async (commands) => {
        session.stats.runs += 1;
        const model = await session.freshWorkspace();
        await checkState(session, model, 'fresh workspace');
        for (const [step, cmd] of commands.entries()) await runCommand(session, model, cmd, step);
        await checkEverything(session, model);
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
    const { stats, tally } = session;
    const byTool = [...tally.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([tool, t]) =>
          `${tool}: ${t.ok} ok, ${[...t.error].map(([c, n]) => `${n} ${c}`).join(', ') || '0 errors'}`,
      );
    console.info(
      `tool sequences: ${stats.runs} runs, ${stats.calls} tool calls (${stats.errors} failing), ` +
        `${stats.twins} REST twins, ${stats.restChecks} REST requests, ${Date.now() - started} ms\n  ` +
        byTool.join('\n  '),
    );
  }, 120_000);
});
