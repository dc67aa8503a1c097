/**
 * Regenerates src/workload/chakra/gen/et_def_pb.ts from src/workload/chakra/et_def.proto (the
 * MLCommons Chakra execution-trace schema, Apache-2.0, mlcommons/chakra @ 21585d8f) with Buf's
 * protobuf-es code generator: `node scripts/gen-chakra.mjs`. The generated file is committed, so a
 * build needs neither buf nor the generator; run this only when the .proto changes.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const template = JSON.stringify({
  version: 'v2',
  plugins: [{ local: 'protoc-gen-es', out: 'src/workload/chakra/gen', opt: ['target=ts', 'import_extension=js'] }],
});
execFileSync('npx', ['buf', 'generate', 'src/workload/chakra', '--template', template], { cwd: root, stdio: 'inherit' });
