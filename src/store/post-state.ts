/**
 * What the main step tells the `post:` step (through the runner's saveState): where the newest
 * local notes are, and whether the main step already saved them as the artifact.
 */
export const NOTES_DIR_STATE = "notes-dir";
export const NOTES_SAVED_STATE = "notes-saved";
