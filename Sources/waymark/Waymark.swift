@main struct Waymark { static func main() {} }
