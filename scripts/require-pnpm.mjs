// prepack guard of every package: only pnpm replaces the "catalog:" and "workspace:" versions in
// the packed package.json with real ones. A tarball made by npm or yarn keeps them, and installing
// it fails with nothing but a log path, so stop before anything is packed, with one line.
const agent = process.env.npm_config_user_agent ?? ""

if (!agent.startsWith("pnpm/")) {
  const name = process.env.npm_package_name ?? "this package"
  const tool = agent.split("/")[0] || "this tool"
  process.stderr.write(
    `✖ Pack and publish ${name} with pnpm (pnpm pack, pnpm publish; npx -y pnpm@10.34.9 works): ${tool} would ship "catalog:" and "workspace:" versions that no one can install.\n`,
  )
  process.exit(1)
}
