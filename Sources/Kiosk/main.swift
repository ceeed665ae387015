import CTOML
import CDRM
import CUdev
import CInput
import CV4L2
import CSeat
import CSystemd
import Prompter
import Render
print("rig")
