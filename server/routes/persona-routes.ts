import { Verticals } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { presentPersona } from '../edge/present.js';
import { personaListSchema, personaSchema, personaVerticalSchema } from '../http/resource-schemas.js';

/** Persona presets: all, by vertical, by id. */
export function personaRoutes(): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/personas',
      summary: 'List persona presets',
      tag: 'personas',
      auth: 'public',
      response: personaListSchema.json,
      async handle({ service }) {
        return { personas: service.personas.list().map(presentPersona) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/personas/id/:id',
      summary: 'Get a persona preset',
      tag: 'personas',
      auth: 'public',
      params: s.object({ id: s.string({ pattern: /^[a-z0-9-]{1,64}$/, patternHint: 'be a persona id' }) }),
      response: personaSchema.json,
      async handle({ params, service }) {
        return presentPersona(service.personas.get(params.id));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/personas/:vertical',
      summary: 'List the persona presets of one vertical',
      tag: 'personas',
      auth: 'public',
      params: s.object({ vertical: s.string({ max: 64, description: `One of ${Verticals.join(', ')}` }) }),
      response: personaVerticalSchema.json,
      async handle({ params, service }) {
        return { vertical: params.vertical, personas: service.personas.ofVertical(params.vertical).map(presentPersona) };
      },
    }),
  ];
}
