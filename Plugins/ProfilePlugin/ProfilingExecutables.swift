import PackagePlugin

/// The executables of a package that record with ProfilerMain: products whose targets
/// depend on ProfilerCLI (the product that only ProfilerMain's users need), in the order
/// Package.swift lists them.
enum ProfilingExecutables {
    static let entryPointProduct = "ProfilerCLI"

    static func `in`(_ package: Package) -> [String] {
        package.products(ofType: ExecutableProduct.self)
            .filter { product in product.targets.contains(where: usesEntryPoint) }
            .map(\.name)
    }

    private static func usesEntryPoint(_ target: any Target) -> Bool {
        target.dependencies.contains { dependency in
            switch dependency {
            case .product(let product): product.name == entryPointProduct
            case .target(let target): target.name == entryPointProduct
            @unknown default: false
            }
        }
    }
}
