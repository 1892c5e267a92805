/**
 * Runs before every test file (vitest `setupFiles`): a test file is a program, and its
 * composition root hands the list of worlds to the kit first (ARCHITECTURE §7b).
 */
import '../worlds';
