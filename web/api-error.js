/* A request the service (or the engine on the phone) did not answer: its RFC 9457 problem, and whether it was the connection. */
export class ApiError extends Error {
  constructor(problem, offline) {
    super(problem.detail || problem.title || 'request failed');
    this.problem = problem;
    this.offline = Boolean(offline);
  }
}
