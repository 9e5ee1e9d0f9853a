// autocannon ships no type declarations; bench/api-throughput.ts types the part it uses.
declare module 'autocannon';
