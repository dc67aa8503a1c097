import { createRequire } from 'node:module';

/** The installed package's version: part of every point key and stored with every row. */
export const MESHWORK_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
