import { readFile } from 'node:fs/promises';

/** What one espeak-ng run leaves behind. */
export interface EspeakOutput {
  /** The WAV written by `-w` (22050 Hz mono 16-bit), or null when espeak-ng wrote none. */
  wav: Uint8Array | null;
  stdout: string[];
  stderr: string[];
  exitStatus: number;
}

/** The structural subset of the Emscripten module object this runtime uses. */
interface EspeakModule {
  FS: {
    createPath(parent: string, path: string, canRead: boolean, canWrite: boolean): unknown;
    createDataFile(path: string, name: null, data: Uint8Array, canRead: boolean, canWrite: boolean, canOwn: boolean): unknown;
    analyzePath(path: string): { exists: boolean };
    readFile(path: string): Uint8Array;
    unlink(path: string): void;
  };
}
type EspeakFactory = (options: object) => Promise<EspeakModule>;

interface EspeakExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  fflush(stream: number): number;
  __main_argc_argv(argc: number, argv: number): number;
  stackSave(): number;
  stackRestore(pointer: number): void;
}

interface Instance {
  module: EspeakModule;
  exports: EspeakExports;
  stdout: string[];
  stderr: string[];
  /** The instance's memory and stack pointer before its first `main`, to start the next run from. */
  pristine: { memory: Uint8Array; stack: number };
}

interface EmbeddedFiles {
  dirs: string[];
  files: { path: string; data: Uint8Array }[];
}

/**
 * espeak-ng (wasm) kept warm inside one thread. The 18.5 MB wasm is compiled once. espeak-ng's
 * `main` keeps global state, so each run must start from a fresh instance's state: after a run
 * that ended well, the instance's linear memory (fixed size: this build cannot grow it) is
 * written back from a copy taken before its first run and its stack pointer restored, which
 * makes it fresh again for a few milliseconds instead of the tens an instance costs to create
 * (the test compares its output with a new instance's, byte for byte). After a failed run the
 * instance is dropped; the next one is created ahead of time, between requests.
 *
 * Creating an instance spends most of its time registering the ~450 embedded data files in the
 * in-memory file system, copying each out of wasm memory. The runtime copies them once and hands
 * the same bytes to every later instance (read-only data), which roughly halves instance start.
 *
 * Runs in a worker thread: the Emscripten glue sets `process.exitCode` whenever `main` returns.
 */
export class EspeakRuntime {
  readonly #factory: EspeakFactory;
  readonly #wasm: WebAssembly.Module;
  #embedded: EmbeddedFiles | null = null;
  #spare: Promise<Instance> | null = null;

  private constructor(factory: EspeakFactory, wasm: WebAssembly.Module) {
    this.#factory = factory;
    this.#wasm = wasm;
  }

  /** Imports the espeak-ng glue at `moduleUrl` and compiles the `espeak-ng.wasm` next to it. */
  static async load(moduleUrl: string): Promise<EspeakRuntime> {
    const glue = (await import(moduleUrl)) as { default?: unknown };
    if (typeof glue.default !== 'function') throw new Error(`${moduleUrl} does not export the espeak-ng factory`);
    const wasm = await WebAssembly.compile(await readFile(new URL('espeak-ng.wasm', moduleUrl)));
    return new EspeakRuntime(glue.default as EspeakFactory, wasm);
  }

  /**
   * Starts creating the next instance unless one is ready or on its way; resolves once it is
   * ready (rejects when it could not be created).
   */
  prepare(): Promise<void> {
    if (!this.#spare) {
      const spare = this.#instantiate();
      spare.catch(() => {
        if (this.#spare === spare) this.#spare = null;
      });
      this.#spare = spare;
    }
    return this.#spare.then(() => undefined);
  }

  /** Runs espeak-ng's command line `espeak-ng <args>` on a fresh instance. */
  async run(args: readonly string[], wavPath: string): Promise<EspeakOutput> {
    const pending = this.#spare ?? this.#instantiate();
    this.#spare = null;
    const instance = await pending;

    const { exports } = instance;
    const encoder = new TextEncoder();
    const argv = ['espeak-ng', ...args];
    const pointers = argv.map((arg) => {
      const bytes = encoder.encode(arg + '\0');
      const at = exports.malloc(bytes.length);
      new Uint8Array(exports.memory.buffer).set(bytes, at);
      return at;
    });
    const argvAt = exports.malloc(4 * (pointers.length + 1));
    new Uint32Array(exports.memory.buffer, argvAt, pointers.length + 1).set([...pointers, 0]);

    let exitStatus: number;
    try {
      exitStatus = exports.__main_argc_argv(argv.length, argvAt);
      exports.fflush(0);
    } catch (error) {
      // exit(n) inside espeak-ng surfaces as Emscripten's ExitStatus (not always an Error).
      const exit = error as { name?: unknown; status?: unknown } | null;
      if (typeof exit === 'object' && exit !== null && exit.name === 'ExitStatus') exitStatus = typeof exit.status === 'number' ? exit.status : 1;
      else throw error;
    }
    const wav = instance.module.FS.analyzePath(wavPath).exists ? instance.module.FS.readFile(wavPath) : null;
    const output = { wav, stdout: instance.stdout.splice(0), stderr: instance.stderr.splice(0), exitStatus };
    if (exitStatus === 0 && !this.#spare) {
      // Back to the state before the first run: memory, stack pointer, no output file.
      if (wav) instance.module.FS.unlink(wavPath);
      new Uint8Array(exports.memory.buffer).set(instance.pristine.memory);
      exports.stackRestore(instance.pristine.stack);
      this.#spare = Promise.resolve(instance);
    }
    return output;
  }

  #instantiate(): Promise<Instance> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    let exports: EspeakExports | undefined;
    let fail: (error: unknown) => void = () => {};
    const failed = new Promise<never>((_, reject) => (fail = reject));
    const options = {
      noInitialRun: true,
      print: (line: string) => stdout.push(line),
      printErr: (line: string) => stderr.push(line),
      instantiateWasm: (imports: { env: Record<string, unknown> }, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
        imports.env['_emscripten_fs_load_embedded_files'] = (pointer: number) =>
          this.#loadEmbeddedFiles(options as unknown as EspeakModule, exports!, pointer);
        WebAssembly.instantiate(this.#wasm, imports as WebAssembly.Imports).then((instance) => {
          exports = instance.exports as unknown as EspeakExports;
          receive(instance, this.#wasm);
        }, fail);
        return {};
      },
    };
    return Promise.race([this.#factory(options), failed]).then((module) => ({
      module,
      exports: exports!,
      stdout,
      stderr,
      pristine: { memory: new Uint8Array(exports!.memory.buffer).slice(), stack: exports!.stackSave() },
    }));
  }

  /** Replaces Emscripten's loader of `--embed-file` data: same files, bytes copied only once. */
  #loadEmbeddedFiles(module: EspeakModule, exports: EspeakExports, pointer: number): void {
    if (!this.#embedded) {
      const heap = new Uint8Array(exports.memory.buffer);
      const words = new Uint32Array(exports.memory.buffer);
      const decoder = new TextDecoder();
      const files: EmbeddedFiles['files'] = [];
      const dirs = new Set<string>();
      // A table of { name pointer, length, content pointer } entries, ended by a null name.
      for (let at = pointer; words[at >> 2] !== 0; at += 12) {
        const nameAt = words[at >> 2]!;
        const length = words[(at + 4) >> 2]!;
        const contentAt = words[(at + 8) >> 2]!;
        const path = decoder.decode(heap.subarray(nameAt, heap.indexOf(0, nameAt)));
        dirs.add(path.slice(0, path.lastIndexOf('/')) || '/');
        files.push({ path, data: heap.slice(contentAt, contentAt + length) });
      }
      this.#embedded = { dirs: [...dirs], files };
    }
    for (const dir of this.#embedded.dirs) module.FS.createPath('/', dir, true, true);
    for (const file of this.#embedded.files) module.FS.createDataFile(file.path, null, file.data, true, true, true);
  }
}
