/**
 * What counts as a DCGM reading: an answer without any DCGM family (empty, another service) is none;
 * the exporter's families without samples are a reading of zero GPUs (every GPU gone).
 */
import { describe, expect, it } from 'vitest';
import { hasDcgmSamples, isDcgmExporterText, readGpus } from './dcgm-read.ts';
import { parsePromText } from './prom-text.ts';

const GPU0 = 'DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-1",modelName="NVIDIA A100"} 41';

describe('DCGM reading', () => {
  it.each([
    ['an empty body', ''],
    [
      'HELP and TYPE lines only (the exporter starting)',
      '# HELP DCGM_FI_DEV_GPU_TEMP t\n# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n',
    ],
    ['another service on the port', 'up 1\nprocess_cpu_seconds_total 3.5\n'],
  ])('%s has no DCGM samples', (_what, text) => {
    expect(hasDcgmSamples(parsePromText(text))).toBe(false);
  });

  it.each([
    ['an empty body', ''],
    ['another service on the port', 'up 1\nprocess_cpu_seconds_total 3.5\n'],
    ['a HELP line naming DCGM in another family', '# HELP up DCGM_FI_DEV_GPU_TEMP\nup 1\n'],
  ])('%s is no exporter reading', (_what, text) => {
    expect(isDcgmExporterText(text, parsePromText(text))).toBe(false);
  });

  it("the exporter's families without a sample are a reading of zero GPUs", () => {
    const text = '# HELP DCGM_FI_DEV_GPU_TEMP t\n# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n';
    expect(isDcgmExporterText(text, parsePromText(text))).toBe(true);
    expect(readGpus(parsePromText(text))).toEqual([]);
  });

  it('an exporter answer has them, and reads as its GPUs', () => {
    const samples = parsePromText(`up 1\n${GPU0}\n`);
    expect(hasDcgmSamples(samples)).toBe(true);
    expect(readGpus(samples)).toMatchObject([{ index: 0, uuid: 'GPU-1', temp: 41 }]);
  });

  it.each([
    ['a plain name', 'NVIDIA GeForce RTX 4070 SUPER', 'NVIDIA GeForce RTX 4070 SUPER'],
    ['an escape sequence and a forged second line', 'RTX\\u001b[31m 4070\\nroot ok', 'RTX 4070 root ok'],
    ['blank after the gate', '\\u202e\\u200b', null],
    ['a 1,000-character name', 'A'.repeat(1000), `${'A'.repeat(63)}…`],
  ])('the modelName label is hostile text: %s', (_what, label, model) => {
    const raw = JSON.parse(`"${label}"`) as string;
    const line = `DCGM_FI_DEV_GPU_TEMP{gpu="0",modelName="${raw.replaceAll('\n', '\\n')}"} 41`;
    expect(readGpus(parsePromText(line))[0]?.model).toBe(model);
  });

  it('reads the windowed XID count per GPU and XID; the series without xid only says it is exported', () => {
    const text = [
      'DCGM_EXP_XID_ERRORS_COUNT{gpu="0",UUID="GPU-1",xid="79",window_size_in_ms="300000"} 2',
      'DCGM_EXP_XID_ERRORS_COUNT{gpu="0",UUID="GPU-1",xid="13",window_size_in_ms="300000"} 5',
      'DCGM_EXP_XID_ERRORS_COUNT{gpu="1",UUID="GPU-2",window_size_in_ms="300000"} 0',
      'DCGM_FI_DEV_XID_ERRORS{gpu="0",UUID="GPU-1"} 79',
      'DCGM_FI_DEV_XID_ERRORS{gpu="1",UUID="GPU-2"} 0',
    ].join('\n');
    expect(readGpus(parsePromText(text)).map((g) => [g.index, g.xid, g.xidCounts])).toEqual([
      [0, 79, { '13': 5, '79': 2 }],
      [1, null, {}],
    ]);
    expect(readGpus(parsePromText(GPU0))[0]?.xidCounts).toBeNull();
  });

  it.each([
    [
      'a fractional last XID',
      'DCGM_FI_DEV_XID_ERRORS{gpu="0"} 3.5',
      'DCGM_FI_DEV_XID_ERRORS 3.5 is not an XID',
    ],
    ['a negative last XID', 'DCGM_FI_DEV_XID_ERRORS{gpu="0"} -1', 'DCGM_FI_DEV_XID_ERRORS -1 is not an XID'],
    [
      'an XID label that is no number',
      'DCGM_EXP_XID_ERRORS_COUNT{gpu="0",xid="abc"} 1',
      'xid="abc"} 1 is not an XID count',
    ],
    [
      'a fractional count',
      'DCGM_EXP_XID_ERRORS_COUNT{gpu="0",xid="79"} 0.5',
      'xid="79"} 0.5 is not an XID count',
    ],
  ])('ignores %s with a debug line', (_what, text, line) => {
    const lines: string[] = [];
    const [g] = readGpus(parsePromText(text), (l) => lines.push(l));
    expect([g?.xid, Object.keys(g?.xidCounts ?? {})]).toEqual([null, []]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(line);
  });
});

describe('readings outside what the hardware can report are no reading', () => {
  const one = (name: string, value: string) =>
    readGpus(parsePromText(`${name}{gpu="0",UUID="GPU-1",modelName="NVIDIA A100"} ${value}\n`))[0];

  it.each([
    ['DCGM_FI_DEV_GPU_TEMP', '1e308', 'temp'],
    ['DCGM_FI_DEV_GPU_TEMP', '-1e308', 'temp'],
    ['DCGM_FI_DEV_GPU_TEMP', '+Inf', 'temp'],
    ['DCGM_FI_DEV_GPU_UTIL', '101', 'util'],
    ['DCGM_FI_DEV_POWER_USAGE', '-5', 'power'],
    ['DCGM_FI_DEV_FB_USED', '1e20', 'fbUsed'],
    ['DCGM_FI_DEV_XID_ERRORS', '79.5', 'xid'],
    ['DCGM_FI_DEV_XID_ERRORS', '-1', 'xid'],
    ['DCGM_FI_DEV_XID_ERRORS', '1e9', 'xid'],
  ] as const)('%s %s', (name, value, field) => {
    expect(one(name, value)?.[field]).toBeNull();
  });

  it.each([
    ['DCGM_FI_DEV_GPU_TEMP', '87', 'temp', 87],
    ['DCGM_FI_DEV_GPU_UTIL', '100', 'util', 100],
    ['DCGM_FI_DEV_XID_ERRORS', '79', 'xid', 79],
    ['DCGM_FI_DEV_POWER_USAGE', '412.5', 'power', 412.5],
  ] as const)('keeps %s %s', (name, value, field, want) => {
    expect(one(name, value)?.[field]).toBe(want);
  });
});
