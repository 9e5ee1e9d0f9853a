import { ValidationError, countCharacters, isWellFormedText } from '../../core/index.js';
import { closestName } from './closest-name.js';

/** JSON Schema (the OpenAPI 3.1 dialect) as produced by {@link Schema.json}. */
export type JsonSchema = { [key: string]: unknown };

/**
 * A validator that also describes itself as JSON Schema, so one definition per route both checks
 * requests at the edge and produces the OpenAPI document. `parse` returns the typed value or
 * throws a ValidationError whose message names the field and the rule.
 */
export interface Schema<T> {
  readonly json: JsonSchema;
  readonly isOptional: boolean;
  parse(value: unknown, field: string): T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

function schema<T>(json: JsonSchema, parse: (value: unknown, field: string) => T, isOptional = false): Schema<T> {
  return Object.freeze({ json: Object.freeze(json), isOptional, parse });
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export interface StringRules {
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** Human wording of the pattern for error messages, e.g. "look like conv_…". */
  patternHint?: string;
  format?: string;
  description?: string;
  example?: string;
}

export const s = {
  string(rules: StringRules = {}): Schema<string> {
    const json: JsonSchema = { type: 'string' };
    if (rules.min !== undefined) json.minLength = rules.min;
    if (rules.max !== undefined) json.maxLength = rules.max;
    if (rules.pattern) json.pattern = rules.pattern.source;
    if (rules.format) json.format = rules.format;
    if (rules.description) json.description = rules.description;
    if (rules.example) json.examples = [rules.example];
    return schema(json, (value, field) => {
      if (typeof value !== 'string') throw new ValidationError(field, `${field} must be a string, got ${typeName(value)}`);
      if (!isWellFormedText(value)) throw new ValidationError(field, `${field} must be valid Unicode text (it contains a lone surrogate)`);
      const length = countCharacters(value);
      if (rules.min !== undefined && length < rules.min) {
        throw new ValidationError(field, rules.min === 1 ? `${field} must not be empty` : `${field} must be at least ${rules.min} characters`);
      }
      if (rules.max !== undefined && length > rules.max) {
        throw new ValidationError(field, `${field} must be at most ${rules.max} characters (got ${length})`);
      }
      if (rules.pattern && !rules.pattern.test(value)) {
        throw new ValidationError(field, `${field} must ${rules.patternHint ?? `match ${rules.pattern.source}`}`);
      }
      return value;
    });
  },

  enum<const V extends string>(values: readonly V[], description?: string): Schema<V> {
    return schema({ type: 'string', enum: [...values], ...(description && { description }) }, (value, field) => {
      if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
        throw new ValidationError(field, `${field} must be one of: ${values.join(', ')}`);
      }
      return value as V;
    });
  },

  boolean(description?: string): Schema<boolean> {
    return schema({ type: 'boolean', ...(description && { description }) }, (value, field) => {
      if (typeof value !== 'boolean') throw new ValidationError(field, `${field} must be true or false, got ${typeName(value)}`);
      return value;
    });
  },

  /** `text`: also digits in a string, as query strings carry numbers; bodies take JSON numbers only. */
  integer(rules: { min?: number; max?: number; description?: string; text?: boolean } = {}): Schema<number> {
    const json: JsonSchema = { type: 'integer' };
    if (rules.min !== undefined) json.minimum = rules.min;
    if (rules.max !== undefined) json.maximum = rules.max;
    if (rules.description) json.description = rules.description;
    return schema(json, (value, field) => {
      const n = rules.text && typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number') throw new ValidationError(field, `${field} must be an integer, got ${typeName(value)}`);
      if (!Number.isInteger(n)) throw new ValidationError(field, `${field} must be an integer`);
      if (rules.min !== undefined && n < rules.min) throw new ValidationError(field, `${field} must be at least ${rules.min}`);
      if (rules.max !== undefined && n > rules.max) throw new ValidationError(field, `${field} must be at most ${rules.max}`);
      return n;
    });
  },

  number(rules: { min?: number; max?: number; description?: string } = {}): Schema<number> {
    const json: JsonSchema = { type: 'number' };
    if (rules.min !== undefined) json.minimum = rules.min;
    if (rules.max !== undefined) json.maximum = rules.max;
    if (rules.description) json.description = rules.description;
    return schema(json, (value, field) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValidationError(field, `${field} must be a number`);
      if (rules.min !== undefined && value < rules.min) throw new ValidationError(field, `${field} must be at least ${rules.min}`);
      if (rules.max !== undefined && value > rules.max) throw new ValidationError(field, `${field} must be at most ${rules.max}`);
      return value;
    });
  },

  array<T>(item: Schema<T>, rules: { min?: number; max?: number; description?: string } = {}): Schema<T[]> {
    const json: JsonSchema = { type: 'array', items: item.json };
    if (rules.min !== undefined) json.minItems = rules.min;
    if (rules.max !== undefined) json.maxItems = rules.max;
    if (rules.description) json.description = rules.description;
    return schema(json, (value, field) => {
      if (!Array.isArray(value)) throw new ValidationError(field, `${field} must be an array, got ${typeName(value)}`);
      if (rules.min !== undefined && value.length < rules.min) throw new ValidationError(field, `${field} must have at least ${rules.min} items`);
      if (rules.max !== undefined && value.length > rules.max) throw new ValidationError(field, `${field} must have at most ${rules.max} items`);
      return value.map((v, i) => item.parse(v, `${field}[${i}]`));
    });
  },

  /** An object with exactly these fields; unknown fields are rejected by name (as Stripe does). */
  object<const Shape extends Record<string, Schema<unknown>>>(shape: Shape, description?: string): Schema<ObjectOf<Shape>> {
    const required = Object.entries(shape).filter(([, v]) => !v.isOptional).map(([k]) => k);
    const properties = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.json]));
    const json: JsonSchema = { type: 'object', properties, additionalProperties: false };
    if (required.length) json.required = required;
    if (description) json.description = description;
    return schema(json, (value, field) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ValidationError(field || 'body', `${field || 'The request body'} must be a JSON object, got ${typeName(value)}`);
      }
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const at = (key: string) => (field ? `${field}.${key}` : key);
      // Own names only: `constructor` or `toString` are not fields just because objects inherit them.
      const unknown = Object.keys(record).filter((k) => !Object.hasOwn(shape, k));
      const known = Object.keys(shape);
      /** `Unknown field contnet — did you mean content?`, plus what else is wrong or allowed. */
      const unknownField = (name: string, rest: string) => {
        const guess = closestName(name, known.filter((k) => !Object.hasOwn(record, k)));
        return new ValidationError(at(name), `Unknown field ${at(name)}${guess ? ` — did you mean ${at(guess)}?` : ''}; ${rest}`);
      };
      for (const [key, child] of Object.entries(shape)) {
        const path = at(key);
        if (!Object.hasOwn(record, key) || record[key] === undefined) {
          if (child.isOptional) continue;
          // A missing field beside an unknown one is most often a typo: name both.
          if (unknown.length) throw unknownField(unknown[0]!, `${path} is required`);
          throw new ValidationError(path, `${path} is required`);
        }
        out[key] = child.parse(record[key], path);
      }
      if (unknown.length) throw unknownField(unknown[0]!, `allowed fields: ${known.join(', ') || 'none'}`);
      return out as ObjectOf<Shape>;
    });
  },

  /**
   * A text field holding JSON, for multipart forms (whose fields are text): parsed, then checked
   * by `inner`. Documented as a string whose content is JSON of `inner`'s schema.
   */
  json<T>(inner: Schema<T>, rules: { description?: string; example: string }): Schema<T> {
    const json: JsonSchema = { type: 'string', contentMediaType: 'application/json', contentSchema: inner.json, examples: [rules.example] };
    if (rules.description) json.description = rules.description;
    return schema(json, (value, field) => {
      if (typeof value !== 'string') throw new ValidationError(field, `${field} must be JSON text, got ${typeName(value)}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        throw new ValidationError(field, `${field} must be valid JSON, e.g. ${rules.example}`);
      }
      return inner.parse(parsed, field);
    });
  },

  optional<T>(inner: Schema<T>): Schema<T | undefined> {
    return schema(inner.json, (value, field) => (value === undefined ? undefined : inner.parse(value, field)), true);
  },

  /**
   * `null` or the inner value: a field that is always present but may be empty (`ended_at`). The
   * description moves up beside `anyOf`, where documentation tools and client generators read it.
   */
  nullable<T>(inner: Schema<T>): Schema<T | null> {
    const { description, ...json } = inner.json;
    return schema(
      { anyOf: [json, { type: 'null' }], ...(description !== undefined && { description }) },
      (value, field) => (value === null ? null : inner.parse(value, field)),
      inner.isOptional,
    );
  },
};

type OptionalKeys<Shape> = { [K in keyof Shape]: Shape[K] extends Schema<infer T> ? (undefined extends T ? K : never) : never }[keyof Shape];
type RequiredKeys<Shape> = Exclude<keyof Shape, OptionalKeys<Shape>>;
export type ObjectOf<Shape> = { [K in RequiredKeys<Shape>]: Infer<Shape[K]> } & { [K in OptionalKeys<Shape>]?: Infer<Shape[K]> };
