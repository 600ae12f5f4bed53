/// What a definition message says about the data messages of one local message type: their
/// global message number, byte order, size, and where the fields this reader uses lie.
struct FITDefinition {
    /// The profile's message number: 0 `file_id`, 20 `record`.
    var globalNumber: UInt16
    var bigEndian: Bool
    /// The bytes after a data message's header byte: every field, developer fields included.
    var size = 0
    /// Field 253, in any message: seconds since 1989-12-31T00:00:00Z.
    var timestamp: FITField?
    // `record` fields (the FIT profile's numbers).
    var latitude: FITField?
    var longitude: FITField?
    var altitude: FITField?
    var enhancedAltitude: FITField?
    var speed: FITField?
    var enhancedSpeed: FITField?
    var gpsAccuracy: FITField?
    /// `file_id`'s field 0, the file's type (4 activity, 6 course…).
    var fileType: FITField?

    static let fileID: UInt16 = 0
    static let record: UInt16 = 20

    init(globalNumber: UInt16, bigEndian: Bool) {
        self.globalNumber = globalNumber
        self.bigEndian = bigEndian
    }

    /// Adds a field declared by its number, size and base type, at the next offset.
    mutating func add(number: UInt8, size fieldSize: Int, baseType: UInt8) {
        let field = FITField(offset: size, size: fieldSize, baseType: baseType)
        size += fieldSize
        if number == 253 {
            timestamp = field
            return
        }
        if globalNumber == Self.fileID {
            if number == 0 { fileType = field }
            return
        }
        guard globalNumber == Self.record else { return }
        switch number {
        case 0: latitude = field
        case 1: longitude = field
        case 2: altitude = field
        case 6: speed = field
        case 31: gpsAccuracy = field
        case 73: enhancedSpeed = field
        case 78: enhancedAltitude = field
        default: break
        }
    }

    /// Adds a developer field's bytes, which this reader skips.
    mutating func addDeveloperField(size fieldSize: Int) {
        size += fieldSize
    }
}
