/**
 * npm run fuzz -- [--count N] [--seed S]: the schema-driven fuzzer (test/fuzz) against the real
 * application on a temporary data folder, for as long as you like. Prints progress and a
 * summary; exits 1 when it found anything. A finding is reproduced by running the same seed.
 */
import { parseArgs } from 'node:util';
import { runFuzz, type Finding } from '../test/fuzz/openapi-fuzzer.js';
import { startServer } from '../test/helpers/server.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 1e9) },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed)) {
  console.error('usage: npm run fuzz -- [--count N] [--seed S]');
  process.exit(2);
}

const server = await startServer();
const started = Date.now();
console.log(`fuzzing ${server.baseUrl} with ${count} requests, seed ${seed}`);
const summary = await runFuzz({
  baseUrl: server.baseUrl,
  login: () => server.login(),
  count,
  seed,
  onFinding: (finding) =>
    console.log(`  finding (${finding.kind}): ${finding.request}\n    -> ${finding.answer}`),
  onProgress: (done, s) => {
    if (done % 1000 === 0) console.log(`  ${done} requests, ${s.findings.length} findings`);
  },
});
await server.stop();

const seconds = (Date.now() - started) / 1000;
console.log(`\n${summary.requests} requests in ${seconds.toFixed(0)} s (seed ${seed})`);
console.log(
  'statuses: ' +
    Object.entries(summary.statuses)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', '),
);
const byKind = new Map<string, Finding[]>();
for (const finding of summary.findings)
  byKind.set(finding.kind, [...(byKind.get(finding.kind) ?? []), finding]);
if (byKind.size === 0) console.log('findings: none');
for (const [kind, findings] of byKind) {
  console.log(
    `findings of kind ${kind}: ${findings.length}, for example\n  ${findings[0]!.request}\n  -> ${findings[0]!.answer}`,
  );
}
process.exitCode = summary.findings.length === 0 ? 0 : 1;
