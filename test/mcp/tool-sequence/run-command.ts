import { expect } from 'vitest';
import { call, type ToolOutcome } from '../../helpers/mcp.js';
import { checkDetails, checkState } from './checks.js';
import type { Command } from './commands.js';
import { expectedSheet } from './expected-dtos.js';
import type { Model } from './model.js';
import { plan } from './plan.js';
import type { Session } from './session.js';
import { fingerprint, touch } from './timestamps.js';

/** Running one command: the tool call, its outcome against the prediction, then the state through REST. */

/** The status REST answers for each code these calls can fail with (the independent oracle). */
const STATUS: Readonly<Record<string, number>> = {
  VALIDATION_FAILED: 400,
  INVALID_LANGUAGE: 400,
  VARIANT_OF_VARIANT: 400,
  GROUP_MOVE_CYCLE: 400,
  PRODUCT_NOT_FOUND: 404,
  GROUP_NOT_FOUND: 404,
  TEXT_NOT_FOUND: 404,
  FEATURE_NOT_FOUND: 404,
  FEATURE_VALUE_NOT_FOUND: 404,
  PRODUCT_NOT_IN_GROUP: 404,
  SUPPLIER_PID_TAKEN: 409,
};

function describeOutcome(outcome: ToolOutcome): string {
  return outcome.isError ? `error ${outcome.text}` : `success ${outcome.text.slice(0, 300)}`;
}

export async function runCommand(session: Session, model: Model, cmd: Command, step: number): Promise<void> {
  const { server, client, stats } = session;
  // Every call at its own instant, so that updatedAt tells which products a call touched.
  server.clock.advance(1000);
  const now = server.clock.now().toISOString();
  const before = new Map(
    [...model.products.values()].map((p) => [p.id, { fingerprint: fingerprint(p), master: p.master }]),
  );
  const planned = plan(model, cmd, now);
  const what = `step ${step} ${planned.tool} ${JSON.stringify(planned.args)}`;
  const outcome = await call(client, planned.tool, planned.args);
  if (process.env.SEQ_DEBUG) console.log('DEBUG', now, what, outcome.isError, outcome.text.slice(0, 200));
  stats.calls += 1;
  if (planned.expected === null) {
    expect(outcome.isError, `${what}: expected success, got ${describeOutcome(outcome)}`).toBe(false);
    expect(JSON.parse(outcome.text), `${what}: text and structured content`).toEqual(outcome.data);
    session.count(planned.tool, 'ok');
    const reread = planned.apply(outcome.data);
    const leeway = touch(model, before, planned.written ?? [], now);
    await checkState(session, model, what, leeway, now);
    if (planned.tool === 'create_product' || planned.tool === 'update_product') {
      const id = (outcome.data.product as { id: number }).id;
      const sheet = expectedSheet(model, model.products.get(id)!);
      expect(outcome.data, `${what}: returned sheet`).toEqual(sheet);
    }
    await checkDetails(session, model, reread, what);
    // Read your writes through the agent interface too (get_product reads on the read connection).
    for (const id of new Set(reread)) {
      const p = model.products.get(id);
      if (!p) continue;
      const sheet = await call(client, 'get_product', { id });
      expect(sheet.isError, `${what}: get_product ${id}: ${sheet.text}`).toBe(false);
      expect(sheet.data, `${what}: get_product ${id}`).toEqual(expectedSheet(model, p));
    }
    return;
  }
  stats.errors += 1;
  const expected = { code: planned.expected, status: STATUS[planned.expected] };
  expect(outcome.isError, `${what}: expected ${planned.expected}, got ${describeOutcome(outcome)}`).toBe(
    true,
  );
  expect({ code: outcome.data.code, status: outcome.data.status }, `${what}: ${outcome.text}`).toEqual(
    expected,
  );
  expect(outcome.data.error).toBe(outcome.text);
  session.count(planned.tool, planned.expected);
  // Nothing changed: the model is as it was.
  await checkState(session, model, `${what} (failed)`);
  await checkDetails(session, model, planned.touched, `${what} (failed)`);
  if (planned.twin) {
    stats.twins += 1;
    const { method, path, body } = planned.twin;
    const res = await session.api(method, path, body);
    expect(
      { status: res.status, code: res.body.code },
      `${what}: REST twin ${method} ${path} ${JSON.stringify(body)} answered ${res.text}`,
    ).toEqual(expected);
    await checkState(session, model, `${what} (REST twin failed)`);
  }
}
