// Runs the Khronos glTF validator over each GLB file named on the command line and fails on any
// error or warning it reports. Usage: NODE_PATH=<dir with gltf-validator> node .ci/check_glb.cjs FILE...
const fs = require('fs');
const validator = require('gltf-validator');

(async () => {
  let failed = false;
  for (const file of process.argv.slice(2)) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)));
    const { numErrors, numWarnings, messages } = report.issues;
    console.log(`${file}: ${numErrors} errors, ${numWarnings} warnings, glTF ${report.info.version}, ${report.info.totalVertexCount} vertices`);
    if (numErrors > 0 || numWarnings > 0) {
      failed = true;
      for (const message of messages.slice(0, 10)) console.log(`  ${message.code} at ${message.pointer}: ${message.message}`);
    }
  }
  process.exit(failed ? 1 : 0);
})();
