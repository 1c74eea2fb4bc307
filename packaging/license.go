package packaging

import (
	"fmt"
	"os"
	"path/filepath"
)

// License is cdpmcp's licence as package.json and the bundle's manifest name
// it: an SPDX identifier. The text is the project's LICENSE file.
const License = "MIT"

// copyLicense copies the project's LICENSE into dir, where a package carries
// it (npm pack includes a LICENSE whatever "files" says). The project is the
// folder that holds dist, as GoReleaser has it.
func (d *Dist) copyLicense(dir string) error {
	src := filepath.Join(filepath.Dir(d.Dir), "LICENSE")
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("the licence every package carries: %w (LICENSE belongs beside %s)", err, d.Dir)
	}
	return copyFile(filepath.Join(dir, "LICENSE"), src, 0o644)
}
