/// <reference types="svelte" />
/// <reference types="vite/client" />

/** package.json's version, set by web/vite.config.ts. */
declare const MESHWORK_VERSION: string;
