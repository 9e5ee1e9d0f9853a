// autocannon ships no type declarations; bench/support/autocannon.ts types the part the benchmarks use.
declare module 'autocannon';
