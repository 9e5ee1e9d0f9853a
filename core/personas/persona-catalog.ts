import type { Persona, Vertical } from './persona.js';
import { Verticals } from './persona.js';
import { personaPresets } from './persona-presets.js';
import { NotFoundError, ServiceError } from '../errors.js';

/** Persona presets, by id and by vertical. */
export class PersonaCatalog {
  readonly #personas: readonly Persona[];

  constructor(personas: readonly Persona[] = personaPresets) {
    this.#personas = personas;
  }

  list(): Persona[] {
    return [...this.#personas];
  }

  find(id: string): Persona | undefined {
    return this.#personas.find((p) => p.id === id);
  }

  get(id: string): Persona {
    const persona = this.find(id);
    if (!persona) throw new NotFoundError('persona', id);
    return persona;
  }

  /** Personas of one vertical; an unknown vertical is "not found" and the message lists the known ones. */
  ofVertical(vertical: string): Persona[] {
    if (!(Verticals as readonly string[]).includes(vertical)) {
      throw new ServiceError('not_found', `No vertical '${vertical}'; verticals are ${Verticals.join(', ')}`);
    }
    return this.#personas.filter((p) => p.vertical === (vertical as Vertical));
  }
}
