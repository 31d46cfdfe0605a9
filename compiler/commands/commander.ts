/**
 * commander, the one argument parser, loaded with require: importing its
 * CommonJS build from ESM costs the start-up of every command 5-8 ms
 * more than requiring it (node 20; issue 26). The same module either way.
 */
import { createRequire } from "node:module";
import type * as CommanderModule from "commander";

const commander = createRequire(import.meta.url)("commander") as typeof CommanderModule;

export const { Command, CommanderError, InvalidArgumentError, Option } = commander;
export type Command = CommanderModule.Command;
export type CommanderError = CommanderModule.CommanderError;
export type Option = CommanderModule.Option;
