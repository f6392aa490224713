// Validates the Strimzi and CloudNativePG custom resources of rendered manifests against
// the operators' schemas, offline (called by deploy/k8s-check.sh):
//
//   node validate.mjs NODE_MODULES_DIR NAME=RENDERED.yaml ...
//
// NODE_MODULES_DIR holds this folder's package.json installed (`npm ci`, pinned by
// package-lock.json). Two checks per resource, both from kubernetes-models-ts's packages,
// which are generated from the operators' own CRDs (Strimzi 1.0.0) and API types
// (CloudNativePG):
// 1. the JSON-schema validator of the resource (types, enums, required fields, patterns);
// 2. strictness: the resource as a TypeScript literal of the resource's generated type,
//    compiled with excess-property checks, so a misspelt or removed field (one the API
//    server would reject with `kubectl apply`'s strict field validation) is an error too.
//    Free-form maps of the CRDs (Kafka's `config`, a topic's `config`, PostgreSQL's
//    `parameters`) stay free-form.
// Any resource of these API groups whose version or kind is not known here is an error
// (Strimzi 1.x serves kafka.strimzi.io/v1 only). Prints one line per problem and a
// summary; exits 1 on any problem.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";

const [nodeModulesArg, ...renders] = process.argv.slice(2);
if (!nodeModulesArg || renders.length === 0) {
  console.error("usage: node validate.mjs NODE_MODULES_DIR NAME=RENDERED.yaml ...");
  process.exit(2);
}
const NM = resolve(nodeModulesArg);
const load = (rel) => import(pathToFileURL(join(NM, rel)).href);

const { parseAllDocuments } = await load("yaml/dist/index.js");
const ts = (await load("typescript/lib/typescript.js")).default;

// apiVersion -> kind -> [module path under node_modules (no .js), exported class and
// interface name]
const STRIMZI = "@kubernetes-models/strimzi-kafka-operator/kafka.strimzi.io/v1";
const CNPG = "@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1";
const KNOWN = {
  "kafka.strimzi.io/v1": Object.fromEntries(
    ["Kafka", "KafkaNodePool", "KafkaTopic", "KafkaUser"].map((k) => [k, `${STRIMZI}/${k}`]),
  ),
  "postgresql.cnpg.io/v1": Object.fromEntries(
    ["Cluster", "Database", "Pooler", "ScheduledBackup", "Backup"].map((k) => [k, `${CNPG}/${k}`]),
  ),
};
const GROUPS = ["kafka.strimzi.io/", "postgresql.cnpg.io/"];

const problems = [];
const checked = [];
for (const arg of renders) {
  const eq = arg.indexOf("=");
  const [name, file] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, arg];
  const docs = parseAllDocuments(readFileSync(file, "utf8"));
  for (const d of docs) {
    if (d.errors.length) {
      problems.push(`${name}: not YAML: ${d.errors[0].message}`);
      continue;
    }
    const obj = d.toJS();
    if (!obj || typeof obj !== "object") continue;
    const api = obj.apiVersion ?? "";
    if (!GROUPS.some((g) => api.startsWith(g))) continue;
    const where = `${name}: ${obj.kind}/${obj.metadata?.name}`;
    const mod = KNOWN[api]?.[obj.kind];
    if (!mod) {
      problems.push(`${where}: ${api} ${obj.kind} is not a resource this check knows (Strimzi 1.x serves kafka.strimzi.io/v1 only)`);
      continue;
    }
    checked.push({ where, obj, mod, kind: obj.kind });
  }
}

// 1. The generated JSON-schema validators.
for (const c of checked) {
  const m = await load(`${c.mod}.js`);
  try {
    new m[c.kind](c.obj).validate();
  } catch (e) {
    for (const line of String(e.message).split("\n")) {
      if (line.trim()) problems.push(`${c.where}: schema: ${line.trim()}`);
    }
  }
}

// 2. Unknown fields: every resource as a literal of its generated interface.
if (checked.length) {
  const dir = mkdtempSync(join(tmpdir(), "quire-crd-"));
  try {
    const lines = [];
    const owner = []; // line index -> resource
    const imports = new Set();
    checked.forEach((c, i) => {
      imports.add(`import type { I${c.kind} as T_${c.kind} } from "${c.mod}";`);
      const body = `const r${i}: T_${c.kind} = ${JSON.stringify(c.obj, null, 2)};`.split("\n");
      for (const l of body) {
        lines.push(l);
        owner.push(c);
      }
    });
    const head = [...imports];
    const file = join(dir, "resources.ts");
    writeFileSync(file, [...head, ...lines, "export {};"].join("\n") + "\n");
    const program = ts.createProgram([file], {
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      noUnusedLocals: false,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      typeRoots: [],
      types: [],
      baseUrl: dir,
      paths: { "*": [join(NM, "*")] },
    });
    const sf = program.getSourceFile(file);
    const checker = program.getTypeChecker();
    const lineOf = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line - head.length;
    const seen = new Set();
    const report = (idx, msg) => {
      const c = owner[idx];
      const key = `${idx}:${msg}`;
      if (seen.has(key)) return;
      seen.add(key);
      problems.push(`${c ? c.where : "resources.ts"}: ${msg} at \`${c ? lines[idx].trim() : ""}\``);
    };
    // Every field of every object against the fields its type declares. The compiler's own
    // excess-property check stops at the first per object; this walk names them all. A type
    // with neither fields nor an index signature is a free-form map of the CRD.
    const known = (type, prop) => {
      const parts = type.isUnion() ? type.types : [type];
      return parts.some((t) => {
        const props = checker.getPropertiesOfType(t);
        const indexed = checker.getIndexInfosOfType(t).length > 0;
        if (!props.length && !indexed) return true; // free-form
        return indexed || props.some((p) => p.getName() === prop);
      });
    };
    const walk = (node) => {
      if (ts.isObjectLiteralExpression(node)) {
        const type = checker.getContextualType(node);
        if (type) {
          const t = checker.getNonNullableType(type);
          for (const prop of node.properties) {
            if (!ts.isPropertyAssignment(prop)) continue;
            const key = prop.name.text ?? prop.name.getText(sf);
            if (!known(t, key)) report(lineOf(prop), `unknown field "${key}"`);
          }
        }
      }
      ts.forEachChild(node, walk);
    };
    walk(sf);
    for (const diag of ts.getPreEmitDiagnostics(program)) {
      const msg = ts.flattenDiagnosticMessageText(diag.messageText, " ");
      if (!diag.file || diag.file.fileName !== file.replaceAll("\\", "/")) {
        problems.push(`type check setup: ${msg}`);
        continue;
      }
      // Unknown fields are reported above, each once.
      if (diag.code === 2353 || diag.code === 2561) continue;
      const { line } = diag.file.getLineAndCharacterOfPosition(diag.start ?? 0);
      report(line - head.length, `mistyped field: ${msg.split(". ")[0]}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const p of problems) console.log(`error: ${p}`);
console.log(
  `crd-schemas: ${checked.length} Strimzi and CloudNativePG resources in ${renders.length} renders: ${problems.length} errors`,
);
process.exit(problems.length ? 1 : 0);
