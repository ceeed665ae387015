import CPixman
import CHarfBuzz
import CFreeType
import CFontconfig
import CUnibreak
import CFribidi
import CPNG
import CYUV
