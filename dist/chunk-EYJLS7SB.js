import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/domain/messages.ts
function callArguments(call) {
  try {
    const parsed = JSON.parse(call.arguments);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
function callSubject(call) {
  const args = callArguments(call);
  const subject = [args?.command, args?.path].find((value) => typeof value === "string");
  return typeof subject === "string" ? subject.replace(/\s+/g, " ") : null;
}

export {
  callArguments,
  callSubject
};
