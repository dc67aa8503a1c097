import { InputError, requireText } from '../../util/errors.js';
import { seed000 } from './seed000.js';
import { seed001 } from './seed001.js';
import { seed002 } from './seed002.js';
import { seed003 } from './seed003.js';
import { seed004 } from './seed004.js';
import { SEED_IDS, type SeedId, type SeedModule } from './types.js';

const MODULES: Readonly<Record<SeedId, SeedModule>> = { '000': seed000, '001': seed001, '002': seed002, '003': seed003, '004': seed004 };

export function getSeedModule(id: SeedId): SeedModule {
  return MODULES[id];
}

/** "004" -> ["004"], "001,004" -> both (in seed order, once each), "all" -> every seed; anything else is an input error. */
export function parseSeedSelection(text: string, field = 'seed'): SeedId[] {
  if (requireText(text, field, `all or seed ids (${SEED_IDS.join(', ')})`) === 'all') return [...SEED_IDS];
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => !(SEED_IDS as readonly string[]).includes(p))) {
    throw new InputError(field, text, `one of ${SEED_IDS.join(', ')}, a comma-separated list of them, or all`);
  }
  return SEED_IDS.filter((id) => parts.includes(id));
}
