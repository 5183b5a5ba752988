# lit configuration of the IR-text tests: every .tir file under tests/lit is a
# test whose RUN lines pipe tritium tools into FileCheck.
import os
import lit.formats

config.name = "tritium"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.tritium_tools_dir), "tests", "lit")
config.excludes = ["Inputs"]

config.substitutions.append(("tritium-opt", os.path.join(config.tritium_tools_dir, "tritium-opt")))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append((r"\bnot\b", config.llvm_not))
