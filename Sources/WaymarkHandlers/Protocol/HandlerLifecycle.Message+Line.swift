extension HandlerLifecycle.Message {
    /// The message as the line the handler `name` reads (docs/handlers.md).
    public func line(handler name: String) -> String {
        switch self {
        case .welcome(let launchReason, let state, let remaining):
            HandlerReply.welcome(handler: name, launchReason: launchReason, state: state.rawValue, remaining: remaining)
        case .willSuspend: HandlerReply.simple("willSuspend")
        case .didResume: HandlerReply.simple("didResume")
        case .didBecomeActive: HandlerReply.simple("didBecomeActive")
        case .didEnterBackground: HandlerReply.simple("didEnterBackground")
        case .willTerminate: HandlerReply.simple("willTerminate")
        case .didReceiveMemoryWarning: HandlerReply.simple("didReceiveMemoryWarning")
        case .expiration(let token, let taskName, let remaining):
            HandlerReply.remaining("expiration", token: token, name: taskName, seconds: remaining)
        case .backgroundTask(let token, let taskName, let remaining):
            HandlerReply.remaining("backgroundTask", token: token, name: taskName, seconds: remaining)
        case .backgroundTaskEnded(let token, let remaining):
            HandlerReply.remaining("backgroundTaskEnded", token: token, name: nil, seconds: remaining)
        case .backgroundTimeRemaining(let remaining):
            HandlerReply.remaining("backgroundTimeRemaining", token: nil, name: nil, seconds: remaining)
        case .error(let message): HandlerReply.simple("error", [("message", message)])
        }
    }
}
