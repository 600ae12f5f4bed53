import ServiceLifecycle
import WaymarkHandlers

/// Serves the handler socket and runs the supervisor's clock until shutdown; then running
/// handlers are asked to stop (SIGTERM, suspended ones resumed first) with their events kept,
/// and after the termination grace (3 s) whatever is left of them gets SIGKILL.
struct HandlerService: Service {
    let supervisor: HandlerSupervisor
    let socket: HandlerSocketServer

    func run() async throws {
        socket.start { connection in supervisor.serve(connection) }
        await withGracefulShutdownHandler {
            await cancelWhenGracefulShutdown { await supervisor.run() }
        } onGracefulShutdown: {}
        await supervisor.shutdown()
        socket.stop()
        await supervisor.finishShutdown()
    }
}
