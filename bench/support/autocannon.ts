// autocannon ships no type declarations (bench/autocannon.d.ts declares the module); this is the
// part of its result the benchmarks read.
import autocannonUntyped from 'autocannon';

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

/** autocannon's promise API: runs a load with `options` and resolves with its summary. */
export const autocannon = autocannonUntyped as unknown as (options: Record<string, unknown>) => Promise<AutocannonResult>;
