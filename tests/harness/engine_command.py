"""engine_command.py: the run-time part of an engine command, for the Python checkers.

A word holding {environment} stands for one word per variable of the environment the engine runs
with, NAME=VALUE in the placeholder's place (an engine that passes the program no environment of
its own, such as WasmEdge: "--env={environment}"; targets/schema.json, engines). The driver
(`llgo-wasm run`) and tests/harness/check_run.cpp expand it the same way
(driver/vocabulary/src/engine_command.cpp).
"""
import os

PLACEHOLDER = "{environment}"


def expand_environment(command, environment=None):
    environment = os.environ if environment is None else environment
    words = []
    for word in command:
        if PLACEHOLDER in word:
            words += [word.replace(PLACEHOLDER, f"{name}={value}") for name, value in sorted(environment.items())]
        else:
            words.append(word)
    return words
