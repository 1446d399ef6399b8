import ArgumentParser
import CareSyncBackends
import CareSyncCore
import Foundation

extension PatientCommand {
    /// `caresync patient erase ID --confirm ID`: erases the patient (docs/security.md "Erasure") and prints the receipt.
    struct Erase: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Erase a patient: every sample, report, goal, minute and token of theirs; the receipt stays in the audit log.",
            discussion: "A server running on the database keeps what it cached of the patient's reach until it restarts: prefer DELETE /v1/patients/ID on a running server.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The patient id.") var id: String
        @Option(help: "The patient id again: nothing is erased unless it matches.") var confirm: String

        func run() throws {
            guard confirm == id else {
                throw reportingErrorsFailure("--confirm must repeat the patient id exactly; nothing was erased")
            }
            let configuration = try reportingErrors { try global.load() }
            let receipt = try reportingErrors {
                try StoreBackends.open(configuration.storeSettings).erasure
                    .erase(ErasureRequest(patient: id, tokenID: "cli", role: .admin, time: Date()))
            }
            guard let receipt else { throw reportingErrorsFailure("no patient \(id); nothing was erased") }
            print("erased patient \(id): \(receipt.total) items")
            for count in receipt.counts where count.count > 0 { print("  \(count.kind) \(count.count)") }
            if !receipt.cleanupComplete {
                print("warning: the clean-up after the erasure did not finish (docs/deployment.md \"Erasure\")")
            }
        }
    }
}
