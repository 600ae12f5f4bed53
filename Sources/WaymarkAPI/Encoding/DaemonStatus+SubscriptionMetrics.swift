extension DaemonStatus {
    /// Per-subscription counters as labelled Prometheus families (one HELP/TYPE per family):
    /// `waymark_subscription_fixes_accepted_total{subscription}`,
    /// `waymark_subscription_fixes_dropped_total{subscription,reason}` and
    /// `waymark_subscription_events_total{subscription,kind}`. Empty without subscriptions.
    var subscriptionMetrics: String {
        guard !subscriptions.isEmpty else { return "" }
        var accepted: [String] = []
        var dropped: [String] = []
        var events: [String] = []
        for subscription in subscriptions {
            let name = "subscription=\"\(Self.labelEscaped(subscription.name))\""
            accepted.append("{\(name)} \(subscription.accepted)")
            for (reason, count) in subscription.dropped.sorted(by: { $0.key < $1.key }) {
                dropped.append("{\(name),reason=\"\(Self.labelEscaped(reason))\"} \(count)")
            }
            for (kind, count) in subscription.events.sorted(by: { $0.key < $1.key }) {
                events.append("{\(name),kind=\"\(Self.labelEscaped(kind))\"} \(count)")
            }
        }
        var out = ""
        for (family, help, samples) in [
            ("waymark_subscription_fixes_accepted_total", "Fixes a subscription's validation gate admitted.", accepted),
            ("waymark_subscription_fixes_dropped_total", "Fixes a subscription's validation gate dropped, by reason.", dropped),
            ("waymark_subscription_events_total", "Records a subscription's services emitted, by kind.", events),
        ] where !samples.isEmpty {
            out += "# HELP \(family) \(help)\n# TYPE \(family) counter\n"
            for sample in samples { out += family + sample + "\n" }
        }
        return out
    }
}
