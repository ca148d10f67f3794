// Runs before `npm test` (the `pretest` script): the suite needs Node.js 22 or newer, and on an
// older one vitest fails a hundred tests and then crashes on a missing API. Plain JavaScript, so
// every Node.js can run it. (`npm ci` refuses old versions by itself: `.npmrc` sets
// engine-strict, and package.json's engines say >=22.)
const REQUIRED_NODE_MAJOR = 22;
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (!(nodeMajor >= REQUIRED_NODE_MAJOR)) {
  process.stderr.write(
    `hookwire: the tests need Node.js ${REQUIRED_NODE_MAJOR} or newer, but npm runs Node.js ${process.versions.node} (${process.execPath}); put Node.js ${REQUIRED_NODE_MAJOR} or newer first on PATH.\n`,
  );
  process.exit(1);
}
