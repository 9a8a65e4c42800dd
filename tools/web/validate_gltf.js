// validate_gltf.js FILE.glb|FILE.gltf ... — the Khronos glTF-Validator (npm gltf-validator, installed by
// `npm install --prefix tools/web`) on each file; prints one JSON line per file:
// {"file", "errors", "warnings", "infos", "messages": ["CODE pointer: message", ...]} (errors and warnings only).
// Exit 0 when it ran (the caller judges the counts), 2 when the validator is not installed.
'use strict';
const fs = require('fs');
const path = require('path');
// Found beside this script (npm install --prefix tools/web) or under $SKINVIEW_NPM_PREFIX
// (scripts/test.sh installs the validator alone into build-npm/ when npm is there).
let validator;
for (const prefix of [__dirname, process.env.SKINVIEW_NPM_PREFIX].filter(Boolean)) {
    try {
        validator = require(path.join(prefix, 'node_modules', 'gltf-validator'));
        break;
    } catch (e) { /* try the next place */ }
}
if (!validator) {
    console.error('validate_gltf: gltf-validator is not installed (npm install --prefix tools/web)');
    process.exit(2);
}
async function validate(file) {
    const data = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(data, {
        uri: path.basename(file),
        maxIssues: 50,
        externalResourceFunction: (uri) => new Promise((resolve, reject) => {
            fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)),
                (error, bytes) => error ? reject(error.toString()) : resolve(new Uint8Array(bytes)));
        }),
    });
    const issues = report.issues;
    const messages = issues.messages.filter((m) => m.severity <= 1).map((m) => `${m.code} ${m.pointer || ''}: ${m.message}`);
    console.log(JSON.stringify({file, errors: issues.numErrors, warnings: issues.numWarnings, infos: issues.numInfos, messages}));
}
(async () => {
    for (const file of process.argv.slice(2)) {
        try {
            await validate(file);
        } catch (e) {
            console.log(JSON.stringify({file, errors: 1, warnings: 0, infos: 0, messages: [`could not validate: ${e}`]}));
        }
    }
})();
