/** The learning schedulers' ids (tfjs, src/agents). */
export const LEARNING_SCHEDULER_IDS = ['bcedge', 'tac', 'ppo', 'ddqn'] as const;
export type LearningSchedulerId = (typeof LEARNING_SCHEDULER_IDS)[number];

/** Whether a lane's scheduler needs TensorFlow.js. */
export function isLearningScheduler(id: string): id is LearningSchedulerId {
  return (LEARNING_SCHEDULER_IDS as readonly string[]).includes(id);
}
