// Writes a generated MSCCL-XML alltoall for nodes × local GPUs (bench input, not shipped): a
// hierarchical two-phase alltoall as MSCCLang would write one (an MSCCL thread block has one send
// and one receive peer, so a direct alltoall would need 1,023 thread blocks per GPU):
//   phase 1, inside a node: to each local peer l', one `s` per destination node of the block
//     destined to (node a', local l'), interleaved with the `r` of the peer's block, landing in
//     scratch at [a'][l'] (one thread block per local peer, 2 × nodes steps);
//   a join thread block copies the GPU's own blocks, waits for the phase-1 thread blocks (nop)
//     and copies its own node's row to the output;
//   phase 2, across nodes: to each (a', l), one `s` of the 8 scratch chunks [a'][*] and one `r`
//     into the output's row a' (one thread block per remote node, waiting for the join).
// 1,024 GPUs (128 × 8): 135 thread blocks and 2,182 steps per GPU, 2.23 M steps, 1.05 M messages.
import { closeSync, openSync, writeSync } from 'node:fs';

export function writeHierarchicalAlltoall(path, nodes = 128, local = 8) {
  const n = nodes * local;
  const fd = openSync(path, 'w');
  let buf = '';
  const out = (text) => {
    buf += text;
    if (buf.length > 1 << 22) {
      writeSync(fd, buf);
      buf = '';
    }
  };
  const step = (s, type, srcbuf, srcoff, dstbuf, dstoff, cnt, depid = -1, deps = -1, hasdep = 0) =>
    `      <step s="${s}" type="${type}" srcbuf="${srcbuf}" srcoff="${srcoff}" dstbuf="${dstbuf}" dstoff="${dstoff}" cnt="${cnt}" depid="${depid}" deps="${deps}" hasdep="${hasdep}"/>\n`;
  out(`<algo name="alltoall_hier_${nodes}x${local}" proto="Simple" nchannels="2" nchunksperloop="${n}" ngpus="${n}" coll="alltoall" inplace="0">\n`);
  for (let g = 0; g < n; g++) {
    const a = Math.floor(g / local);
    const l = g % local;
    out(`  <gpu id="${g}" i_chunks="${n}" o_chunks="${n}" s_chunks="${n}">\n`);
    let tb = 0;
    const phase1 = [];
    for (let lp = 0; lp < local; lp++) {
      if (lp === l) continue;
      const peer = a * local + lp;
      out(`    <tb id="${tb}" send="${peer}" recv="${peer}" chan="0">\n`);
      for (let ap = 0; ap < nodes; ap++) {
        out(step(2 * ap, 's', 'i', ap * local + lp, 's', ap * local + l, 1));
        out(step(2 * ap + 1, 'r', 'i', ap * local + l, 's', ap * local + lp, 1, -1, -1, ap === nodes - 1 ? 1 : 0));
      }
      out('    </tb>\n');
      phase1.push([tb, 2 * nodes - 1]);
      tb++;
    }
    const join = tb++;
    out(`    <tb id="${join}" send="-1" recv="-1" chan="0">\n`);
    let s = 0;
    for (let ap = 0; ap < nodes; ap++) out(step(s++, 'cpy', 'i', ap * local + l, 's', ap * local + l, 1));
    for (const [t, last] of phase1) out(step(s++, 'nop', 'i', -1, 'o', -1, 0, t, last));
    out(step(s++, 'cpy', 's', a * local, 'o', a * local, local, -1, -1, 1));
    out('    </tb>\n');
    const joined = s - 1;
    for (let ap = 0; ap < nodes; ap++) {
      if (ap === a) continue;
      const peer = ap * local + l;
      out(`    <tb id="${tb++}" send="${peer}" recv="${peer}" chan="1">\n`);
      out(step(0, 's', 's', ap * local, 'o', a * local, local, join, joined));
      out(step(1, 'r', 's', a * local, 'o', ap * local, local));
      out('    </tb>\n');
    }
    out('  </gpu>\n');
  }
  out('</algo>\n');
  writeSync(fd, buf);
  closeSync(fd);
}
