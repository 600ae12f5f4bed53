import Foundation
import Testing
import WaymarkDaemon
import WaymarkPower
import WaymarkTestSupport

/// `power.phone_profiles`: the directory of the phone profiles that price each network device.
@Suite struct PhoneProfilesConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    private func parse(_ yaml: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
    }

    @Test func theDefaultIsTheBuiltInPhoneAndTheShippedFilesLoadAsIt() throws {
        #expect(defaults.power.phoneProfiles == .default)
        let configuration = try parse("power:\n  phone_profiles: \(PowerConfigurationTests.profiles)\n")
        #expect(configuration.power.phoneProfiles == .default)
    }

    @Test func aDirectoryWithoutThePhoneFilesIsReportedAtTheKeyAndTheMissingFile() throws {
        let directory = try TemporaryDirectory()
        do {
            _ = try parse("power:\n  phone_profiles: \(directory.url.path)\n")
            Issue.record("an empty directory was accepted")
        } catch {
            #expect(error.description.hasPrefix("waymark.yaml:2:19: power.phone_profiles: \(directory.url.path)/phone-gnss.yaml: cannot read the profile"), "\(error)")
        }
    }
}
