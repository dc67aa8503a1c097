import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

export default {
  preprocess: vitePreprocess(),
  // Views read the URL's parameters once, as their initial form values: that is the intent here
  // (`npm run lint:svelte` ignores the same warning).
  onwarn: (warning, handler) => {
    if (warning.code !== 'state_referenced_locally') handler(warning);
  },
};
