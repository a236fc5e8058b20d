// Python's start in the static edition's page, compiled ahead: the modules of Pyodide's
// standard library that its start imports, as bytecode, for `kraftstokk export-web`.
//
// Pyodide's python_stdlib.zip holds sources, so every page compiles some 140 modules
// (asyncio, typing, inspect, re, ...) each time it starts: a good part of the worker's
// second of CPU before the engine runs. Bytecode is Python's own version's, so it is made
// here by Pyodide itself (in Node, which npm brings): the modules in sys.modules after
// loadPyodide, each compiled from the zip's source into an unchecked hash-based .pyc
// (valid whatever the file times), with the hash seed fixed so that the same Pyodide
// gives the same bytes. The export puts each .pyc in place of its .py (web/export.py).
//
//     node scripts/pyodide_boot.mjs .venv/npm/node_modules/pyodide   (make pyodide runs it)

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const folder = path.resolve(process.argv[2] || ".venv/npm/node_modules/pyodide");
const { version } = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.join(folder, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${folder}/`, env: { PYTHONHASHSEED: "0" } });
pyodide.globals.set("VERSION", version);
pyodide.runPython(`
import importlib.util, marshal, sys, zipfile

ZIP = "/lib/python314.zip/"
names = sorted({  # read from the zip (not the frozen ones, which have a __file__ too)
    module.__file__.removeprefix(ZIP)
    for module in list(sys.modules.values())
    if type(getattr(module, "__loader__", None)).__name__ == "zipimporter"
    and (getattr(module, "__file__", None) or "").startswith(ZIP)
    and module.__file__.endswith(".py")
})
with zipfile.ZipFile(ZIP.rstrip("/")) as stdlib, zipfile.ZipFile("/tmp/boot.zip", "w", zipfile.ZIP_DEFLATED) as out:
    out.comment = f"pyodide {VERSION}".encode()
    for name in names:
        source = stdlib.read(name)
        code = compile(source, ZIP + name, "exec", dont_inherit=True)
        pyc = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")  # hash-based, unchecked
        pyc += importlib.util.source_hash(source) + marshal.dumps(code)
        info = zipfile.ZipInfo(name + "c", (1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        out.writestr(info, pyc)
print(f"pyodide_boot: {len(names)} modules of Python's start compiled")
`);
fs.writeFileSync(path.join(folder, "kraftstokk-boot-pyc.zip"), pyodide.FS.readFile("/tmp/boot.zip"));
