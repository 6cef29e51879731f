// After `npm install` on Node 20: npm has warned (EBADENGINE) about every package that wants Node 22,
// and installed them anyway. Say why that is fine, under the warnings, where the person is looking.
const npmNode = /\bnode\/v(\d+)/.exec(process.env.npm_config_user_agent ?? "")?.[1];
if (npmNode && Number(npmNode) < 22) {
  console.log(
    `\nThe EBADENGINE warnings above are expected on Node ${npmNode}: every \`npm run\` script runs on the ` +
      "Node 22 that the `node` dev dependency installed. Use Node 22 to install without them.\n",
  );
}
