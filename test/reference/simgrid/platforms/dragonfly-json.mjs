// Writes dragonfly-4x4x4.json: SimGrid's DRAGONFLY cluster "4,1;1,1;4,1;4" (DragonflyZone) as a
// Meshwork graph. 4 groups of one chassis of 4 routers, 4 hosts per router (host id =
// router·4 + node, router = group·4 + blade), routers of a chassis all-to-all, and router r of group
// g holds the one link to group r (to router g of group r). Links are listed terminal, local, then
// global, so that shortest-path routing's lowest-port tie-break takes SimGrid's minimal route (local
// hop to the router holding the global link first). Run: node dragonfly-json.mjs > dragonfly-4x4x4.json
const G = 4, B = 4, N = 4;
const hosts = G * B * N;
const nodes = [];
for (let h = 0; h < hosts; h++) nodes.push({ kind: 'terminal', name: `node-${h}` });
for (let r = 0; r < G * B; r++) nodes.push({ kind: 'switch', name: `router-${r}` });
const router = (g, b) => hosts + g * B + b;
const links = [];
for (let r = 0; r < G * B; r++) for (let n = 0; n < N; n++) links.push({ src: r * N + n, dst: hosts + r, class: 'terminal' });
for (let g = 0; g < G; g++) for (let j = 0; j < B; j++) for (let k = j + 1; k < B; k++) links.push({ src: router(g, j), dst: router(g, k), class: 'local' });
for (let i = 0; i < G; i++) for (let j = i + 1; j < G; j++) links.push({ src: router(i, j), dst: router(j, i), class: 'global' });
const doc = { format: 'meshwork-topology', version: 1, name: 'simgrid-dragonfly-4x4x4', defaults: { bw: '10GBps', lat: '100ns' }, nodes, links };
process.stdout.write(JSON.stringify(doc) + '\n');
