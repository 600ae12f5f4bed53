import Foundation
import WaymarkClient

// A Waymark handler in Swift: appends each event to the file given as its only argument (one
// JSON object per line, with the region's state as the daemon sees it), inside a background
// task, acknowledges it and says it has finished. Build it with `swift build --product waymark-example-handler`.
//
//     waymark handlers add hut-swift --exec .build/debug/waymark-example-handler --regions hut -- /tmp/hut.jsonl

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: waymark-example-handler OUTPUT.jsonl\n".utf8))
    exit(64)
}
let output = CommandLine.arguments[1]
let client = try await WaymarkHandlerClient.connect()
for await event in client.events {
    let task = try await client.beginBackgroundTask("write \(event.id)")
    var line: [String: Any] = [
        "id": event.id, "attempt": event.attempt, "reason": event.reason, "launchReason": client.launchReason,
        "pid": Int(getpid()), "event": event.json, "backgroundTimeRemaining": task.remaining ?? -1,
    ]
    if let region = event.region { line["regionState"] = try await client.regionState(region, device: event.device).state ?? "none" }
    // A standard update's measurements, each present only when the fix had it.
    let measured = ["altitude": event.altitude, "verticalAccuracy": event.verticalAccuracy, "speed": event.speed, "course": event.course]
    line["measured"] = measured.compactMapValues { $0 }
    line["lastLocation"] = try await client.lastLocation(device: event.device) ?? "none"
    let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) + Data("\n".utf8)
    if let handle = FileHandle(forWritingAtPath: output) {
        handle.seekToEndOfFile()
        handle.write(data)
        try handle.synchronize()
        try handle.close()
    } else {
        try data.write(to: URL(fileURLWithPath: output))
    }
    client.acknowledge(event)
    client.endBackgroundTask(task)
    // Suspended now, not at the end of the budget; a background fetch says how it went.
    if event.reason == "fetch" {
        client.finishedFetch(.newData, through: event)
    } else {
        client.finished(useful: true, through: event)
    }
}
