import type { Serializer } from '../edge/serializer.js';
import type { JsonSchema } from './schema.js';

/**
 * The `components.schemas` of a document being built. Schemas are recognised by identity: the DSL
 * freezes each schema's JSON once, and every route or event that uses `messageSchema` holds that
 * very object, so naming it once turns each use — top level or nested — into a `$ref`. Only the
 * named schemas a document uses are emitted (no unused components).
 */
export class SchemaComponents {
  readonly #names = new Map<JsonSchema, { name: string; resource: boolean }>();
  readonly #emitted = new Map<string, JsonSchema>();
  readonly #serializer: Serializer | undefined;
  /** The envelope style camel-cases resources inside `{data, meta}`, so they cannot be shared nested. */
  readonly #nestResources: boolean;

  /** `serializer`: the response style of a REST document; none for a style-free one (AsyncAPI). */
  constructor(serializer?: Serializer, options: { envelope?: boolean } = {}) {
    this.#serializer = serializer;
    this.#nestResources = !options.envelope;
  }

  /** Gives `json` a component name, used wherever `json` appears; `resource`: a REST resource body. */
  name(json: JsonSchema, name: string, resource = false): void {
    if (!this.#names.has(json)) this.#names.set(json, { name, resource });
  }

  /** A `$ref` to `json` when it is named (emitting it), else `json` with its named parts as refs. */
  ref(json: JsonSchema): JsonSchema {
    const named = this.#names.get(json);
    if (!named || (named.resource && !this.#nestResources)) return this.#withRefs(json);
    return this.define(named.name, json);
  }

  /** Emits `json` under `name` (once) and returns a `$ref` to it. */
  define(name: string, json: JsonSchema): JsonSchema {
    if (!this.#emitted.has(name)) {
      this.#emitted.set(name, {}); // reserved first: a schema that contains itself ends in a ref
      this.#emitted.set(name, this.#withRefs(json));
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** A success body in the document's response style, named after its resource when it has a name. */
  success(resource: JsonSchema): JsonSchema {
    const serializer = this.#serializer;
    if (!serializer) return this.ref(resource);
    const wrapped = serializer.successSchema(resource);
    if (wrapped === resource) return this.ref(resource);
    const named = this.#names.get(resource);
    return named ? this.define(named.name, wrapped) : this.#withRefs(wrapped);
  }

  /** The emitted components, sorted by name. */
  schemas(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.#emitted].sort(([a], [b]) => a.localeCompare(b)));
  }

  #withRefs(json: JsonSchema): JsonSchema {
    const out: JsonSchema = { ...json };
    const sub = (value: unknown) => this.ref(value as JsonSchema);
    if (json.properties) out.properties = Object.fromEntries(Object.entries(json.properties as Record<string, JsonSchema>).map(([k, v]) => [k, sub(v)]));
    if (json.items && typeof json.items === 'object') out.items = sub(json.items);
    if (json.contentSchema) out.contentSchema = sub(json.contentSchema);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(json[key])) out[key] = (json[key] as JsonSchema[]).map(sub);
    return out;
  }
}
